package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.MessageJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerMainTest {

  @TempDir Path dir;

  @Test
  void aTaskSaysHelloLoadsTrainsAndExitsWithZero() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.Happy.class, Map.of("BERTH_PARAM_LR", "0.1"))) {
      Map<String, Object> hello = berth.next("hello");
      assertThat(hello).containsEntry("task", "t-1").containsEntry("token", FakeBerth.TOKEN)
          .containsEntry("protocol", 1);
      assertThat(((Number) hello.get("pid")).longValue()).isEqualTo(ProcessHandle.current().pid());

      berth.load();
      berth.expectStatus("LOADING");
      assertThat(berth.next("item")).containsEntry("key", "rows").containsEntry("value", 3);
      berth.expectStatus("WAITING");

      berth.train("cuda:1");
      berth.expectStatus("TRAINING");
      assertThat(berth.next("item")).containsEntry("key", "progress").containsEntry("value", Map.of("epoch", 1));
      assertThat(berth.next("result").get("result")).isEqualTo(
          MessageJson.parse("{\"device\":\"cuda:1\",\"sum\":6,\"lr\":\"0.1\",\"best\":null}"));
      Map<String, Object> finished = berth.next("finished");
      assertThat(((Number) finished.get("loadTimeMs")).longValue()).isNotNegative();
      assertThat(((Number) finished.get("trainTimeMs")).longValue()).isNotNegative();

      berth.exit();
      assertThat(berth.exitCode()).isZero();
    }
  }

  @Test
  void anOutOfMemoryErrorInLoadIsReportedAndTheWorkerExitsWithThree() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.OomInLoad.class, Map.of())) {
      berth.next("hello");
      berth.load();
      berth.expectStatus("LOADING");

      Map<String, Object> oom = berth.next("oom");

      assertThat(oom).containsEntry("stage", "LOAD");
      assertThat((String) oom.get("message")).contains("OutOfMemoryError").contains("Java heap space");
      berth.exit();
      assertThat(berth.exitCode()).isEqualTo(3);
    }
  }

  @Test
  void anOutOfMemoryInTrainKeepsTheLoadedTaskForASecondTrain() throws Exception {
    Tasks.OomOnceInTrain.LOADS.set(0);
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.OomOnceInTrain.class, Map.of())) {
      berth.next("hello");
      berth.load();
      berth.expectStatus("LOADING");
      berth.expectStatus("WAITING");
      berth.train("cuda:0");
      berth.expectStatus("TRAINING");

      Map<String, Object> oom = berth.next("oom");

      assertThat(oom).containsEntry("stage", "TRAIN");
      assertThat(oom).containsEntry("message", "java.lang.RuntimeException: CUDA out of memory. Tried to allocate 2.00 GiB");
      berth.expectStatus("WAITING");
      berth.train("cuda:3");
      berth.expectStatus("TRAINING");
      assertThat(berth.next("result").get("result")).isEqualTo(Map.of("device", "cuda:3", "trains", 2));
      berth.next("finished");
      berth.exit();
      assertThat(berth.exitCode()).isZero();
      assertThat(Tasks.OomOnceInTrain.LOADS).hasValue(1);
    }
  }

  @Test
  void anExceptionIsReportedWithItsStackTraceAndTheWorkerExitsWithThree() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.Failing.class, Map.of())) {
      berth.next("hello");
      berth.load();
      berth.expectStatus("LOADING");
      berth.expectStatus("WAITING");
      berth.train("cpu");
      berth.expectStatus("TRAINING");

      Map<String, Object> failure = berth.next("exception");

      assertThat(failure).containsEntry("stage", "TRAIN")
          .containsEntry("message", "java.lang.IllegalStateException: bad batch");
      assertThat((String) failure.get("traceback"))
          .startsWith("java.lang.IllegalStateException: bad batch")
          .contains("at " + Tasks.Failing.class.getName() + ".train(");
      berth.exit();
      assertThat(berth.exitCode()).isEqualTo(3);
    }
  }

  @Test
  void aMissingTaskClassIsReportedAsALoadExceptionAndTheWorkerExitsWithTwo() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, null, Map.of())) {
      berth.next("hello");

      Map<String, Object> failure = berth.next("exception");

      assertThat(failure).containsEntry("stage", "LOAD")
          .containsEntry("message", "task class com.example.Missing was not found on the class path");
      berth.load(); // sent before Berth read the exception: ignored
      berth.exit();
      assertThat(berth.exitCode()).isEqualTo(2);
      assertThat(berth.stderr()).contains("com.example.Missing was not found");
    }
  }

  @Test
  void aClassThatIsNotABerthTaskIsRejectedByName() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.NotATask.class, Map.of())) {
      berth.next("hello");

      assertThat((String) berth.next("exception").get("message")).endsWith("does not implement dev.berth.task.BerthTask");
      berth.exit();
      assertThat(berth.exitCode()).isEqualTo(2);
    }
  }

  @Test
  void aTaskWithoutANoArgumentConstructorIsRejected() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.NoDefaultConstructor.class, Map.of())) {
      berth.next("hello");

      assertThat((String) berth.next("exception").get("message")).contains("public constructor without arguments");
      berth.exit();
      assertThat(berth.exitCode()).isEqualTo(2);
    }
  }

  @Test
  void aTrainBeforeLoadIsAProtocolError() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.Happy.class, Map.of())) {
      berth.next("hello");

      berth.train("cpu");

      assertThat(berth.exitCode()).isEqualTo(2);
      assertThat(berth.stderr()).contains("protocol error: unexpected command 'train'");
    }
  }

  @Test
  void theWorkerExitsWhenBerthHangsUpWhileItWaits() throws Exception {
    try (FakeBerth berth = FakeBerth.start(dir, Tasks.Happy.class, Map.of())) {
      berth.next("hello");
      berth.load();
      berth.expectStatus("LOADING");
      berth.next("item");
      berth.expectStatus("WAITING");

      berth.hangUp();

      assertThat(berth.exitCode()).isEqualTo(2);
      assertThat(berth.stderr()).contains("closed before the task was told to exit");
    }
  }

  @Test
  void withoutBerthTheTaskLoadsTrainsOnTheCpuAndPrintsItsResult() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Worker worker = new Worker(Map.of("BERTH_PARAM_LR", "0.5"), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), code -> {}, getClass().getClassLoader());

    int code = worker.run(new String[] {Tasks.Happy.class.getName()});

    assertThat(code).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).strip())
        .isEqualTo("{\"device\":\"cpu\",\"sum\":6,\"lr\":\"0.5\",\"best\":null}");
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("[local] INFO item rows = 3");
  }

  @Test
  void underBerthWithoutItsChannelTheTaskTrainsOnItsDeviceAndWritesItsResultFile(@TempDir Path taskDir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Worker worker = new Worker(Map.of("BERTH_DEVICE", "cuda:1", "BERTH_TASK_DIR", taskDir.toString()),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8), code -> {}, getClass().getClassLoader());

    assertThat(worker.run(new String[] {Tasks.Happy.class.getName()})).isZero();

    assertThat(taskDir.resolve("result.json")).content()
        .isEqualTo("{\"device\":\"cuda:1\",\"sum\":6,\"lr\":null,\"best\":null}");
  }

  @Test
  void withoutBerthAFailingTaskPrintsItsStackTraceAndExitsWithThree() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Worker worker = new Worker(Map.of(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), code -> {}, getClass().getClassLoader());

    assertThat(worker.run(new String[] {Tasks.Failing.class.getName()})).isEqualTo(3);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("java.lang.IllegalStateException: bad batch");
  }

  @Test
  void aMissingArgumentOrTokenIsASetupError() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

    assertThat(new Worker(Map.of(), System.out, errStream, code -> {}, getClass().getClassLoader())
        .run(new String[0])).isEqualTo(2);
    assertThat(new Worker(Map.of("BERTH_CONTROL", dir.resolve("none.sock").toString(), "BERTH_TASK_ID", "t"),
        System.out, errStream, code -> {}, getClass().getClassLoader()).run(new String[] {"x.Y"})).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage:").contains("BERTH_TOKEN is missing");
  }
}
