package dev.berth.runtime.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NvmlStatusTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      0   | Success (NVML_SUCCESS, 0)
      3   | Not Supported (NVML_ERROR_NOT_SUPPORTED, 3)
      9   | Driver Not Loaded (NVML_ERROR_DRIVER_NOT_LOADED, 9)
      12  | NVML Shared Library Not Found (NVML_ERROR_LIBRARY_NOT_FOUND, 12)
      15  | GPU is lost (NVML_ERROR_GPU_IS_LOST, 15)
      18  | Driver/library version mismatch (NVML_ERROR_LIB_RM_VERSION_MISMATCH, 18)
      999 | Unknown Error (NVML_ERROR_UNKNOWN, 999)
      """)
  void knownCodesAreDescribedWithTheirConstant(int code, String message) {
    assertThat(NvmlStatus.describe(code)).isEqualTo(message);
  }

  @Test
  void unknownCodesAreStillDescribed() {
    assertThat(NvmlStatus.describe(4242)).isEqualTo("unknown NVML status 4242");
    assertThat(NvmlStatus.name(4242)).isEqualTo("UNKNOWN_CODE_4242");
    assertThat(NvmlStatus.name(7)).isEqualTo("INSUFFICIENT_SIZE");
  }

  @Test
  void theNamedConstantsMatchTheirCodes() {
    assertThat(NvmlStatus.name(NvmlStatus.NOT_SUPPORTED)).isEqualTo("NOT_SUPPORTED");
    assertThat(NvmlStatus.name(NvmlStatus.INSUFFICIENT_SIZE)).isEqualTo("INSUFFICIENT_SIZE");
    assertThat(NvmlStatus.name(NvmlStatus.DRIVER_NOT_LOADED)).isEqualTo("DRIVER_NOT_LOADED");
    assertThat(NvmlStatus.name(NvmlStatus.LIB_RM_VERSION_MISMATCH)).isEqualTo("LIB_RM_VERSION_MISMATCH");
  }
}
