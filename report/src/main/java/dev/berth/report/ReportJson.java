package dev.berth.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.ClusterReport;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.os.AtomicFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Writes {@code report.json} atomically: to a temporary file in the same folder, flushed to disk,
 * then renamed over the old report, so a reader never sees half a report. The one writer of the file:
 * the engine calls it as a run ends, {@code berth report} as it rebuilds a run's reports.
 */
public final class ReportJson {

  /** ISO-8601 in UTC with milliseconds, e.g. {@code 2026-11-22T03:04:05.678Z}. */
  public static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final ObjectMapper JSON = mapper();

  private ReportJson() {}

  /** Writes the report to {@code file}, replacing it atomically; streamed, as it may take tens of megabytes. */
  public static void write(RunReport report, Path file) throws IOException {
    AtomicFiles.write(file, out -> JSON.writeValue(out, report));
  }

  /**
   * Writes {@code sample} to nowhere through the very mapper and stream path {@link #write} uses, so
   * that a later write finds its serializers made and its code loaded.
   */
  public static void warmUp(RunReport sample) throws IOException {
    JSON.writeValue(OutputStream.nullOutputStream(), sample);
  }

  /**
   * Whether {@code file} is a report of the run's end with this status and time: a Berth killed
   * after it journalled its run's end and before it wrote the report leaves the report of the
   * run's segment before (an interrupted one), or none. Reads only the top-level fields it needs.
   */
  public static boolean reportsEnd(Path file, RunStatus status, Instant finishedAt) {
    try (JsonParser p = JSON.getFactory().createParser(file.toFile())) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      String endedAs = null;
      String endedAt = null;
      while ((endedAs == null || endedAt == null) && p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (field.equals("status")) {
          endedAs = p.getValueAsString();
        } else if (field.equals("finishedAt")) {
          endedAt = p.getValueAsString();
        } else {
          p.skipChildren();
        }
      }
      return status.name().equals(endedAs) && TIMESTAMP.format(finishedAt).equals(endedAt);
    } catch (IOException e) {
      return false; // missing or unreadable: not this end's report
    }
  }

  /** The report as indented JSON text. */
  public static String toJson(RunReport report) throws IOException {
    return JSON.writeValueAsString(report);
  }

  /** A run whose spec never changed writes no {@code revisions}, as before there were any. */
  private abstract static class RevisionsWhenAny {
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    abstract List<Revision> revisions();
  }

  /** A local attempt writes no {@code cluster}, as before there was any. */
  private abstract static class ClusterWhenAny {
    @JsonInclude(JsonInclude.Include.NON_NULL)
    abstract ClusterReport cluster();
  }

  /** The mapper Berth writes JSON with: indented, timestamps as {@link #TIMESTAMP}. */
  public static ObjectMapper mapper() {
    SimpleModule time = new SimpleModule("berth-time");
    time.addSerializer(Instant.class, new JsonSerializer<Instant>() {
      @Override
      public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeString(TIMESTAMP.format(value));
      }
    });
    ObjectMapper mapper = new ObjectMapper().registerModule(time).enable(SerializationFeature.INDENT_OUTPUT)
        .addMixIn(RunReport.class, RevisionsWhenAny.class).addMixIn(AttemptReport.class, ClusterWhenAny.class);
    mapper.setDefaultPrettyPrinter(new ReportIndents());
    return mapper;
  }
}
