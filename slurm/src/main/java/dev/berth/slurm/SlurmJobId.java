package dev.berth.slurm;

import java.util.regex.Pattern;

/**
 * A Slurm job id as squeue and sacct print it: {@code "27"} for a job, {@code "23_1"} for element 1
 * of array job 23. An array element also has a raw id of its own once it starts, but Berth always
 * uses the array form, which is known from submission on.
 */
public record SlurmJobId(String value) {

  private static final Pattern FORM = Pattern.compile("[0-9]+(_[0-9]+)?");

  /** Validates the form. */
  public SlurmJobId {
    if (value == null || !FORM.matcher(value).matches()) {
      throw new IllegalArgumentException("'" + value + "' is not a Slurm job id such as 27 or 23_1");
    }
  }

  /** Shorthand for {@code new SlurmJobId(value)}. */
  public static SlurmJobId of(String value) {
    return new SlurmJobId(value);
  }

  /** Element {@code index} of array job {@code arrayJob}. */
  public static SlurmJobId element(SlurmJobId arrayJob, int index) {
    if (arrayJob.isArrayElement() || index < 0) {
      throw new IllegalArgumentException("element " + index + " of " + arrayJob + " is not a job id");
    }
    return new SlurmJobId(arrayJob.value + "_" + index);
  }

  /** Whether this is an element of a job array. */
  public boolean isArrayElement() {
    return value.indexOf('_') >= 0;
  }

  /** The id to ask squeue and sacct about: the array job's id for an element, else this id. */
  public String queryId() {
    int underscore = value.indexOf('_');
    return underscore < 0 ? value : value.substring(0, underscore);
  }

  @Override
  public String toString() {
    return value;
  }
}
