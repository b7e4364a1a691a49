package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FailuresTest {

  /** Named like the error types native bindings throw. */
  static class FakeCudaOutOfMemoryError extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  /** A subclass whose own name says nothing. */
  static final class Quiet extends FakeCudaOutOfMemoryError {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void outOfMemoryErrorsAreRecognisedByTypeNameOrMessage() {
    OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
    RuntimeException cublas = new RuntimeException("CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate");
    Quiet quiet = new Quiet();

    assertThat(Failures.trainOom(heap)).isSameAs(heap);
    assertThat(Failures.trainOom(cublas)).isSameAs(cublas);
    assertThat(Failures.trainOom(quiet)).isSameAs(quiet);
    assertThat(Failures.trainOom(new IllegalStateException("step failed", cublas))).isSameAs(cublas);
  }

  @Test
  void otherFailuresAreNotOutOfMemory() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);

    assertThat(Failures.trainOom(new IllegalArgumentException("bad shape"))).isNull();
    assertThat(Failures.trainOom(b)).as("a cycle of causes ends").isNull();
  }

  @Test
  void aFailureIsRenderedAsItsMessageAndFullStackTrace() {
    Exception e = new IllegalStateException("outer", new RuntimeException("inner"));

    assertThat(Failures.message(e)).isEqualTo("java.lang.IllegalStateException: outer");
    assertThat(Failures.traceback(e)).startsWith("java.lang.IllegalStateException: outer")
        .contains("at " + FailuresTest.class.getName()).contains("Caused by: java.lang.RuntimeException: inner");
  }
}
