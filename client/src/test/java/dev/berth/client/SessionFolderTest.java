package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session never lands among the user's files unasked, and a fresh one never moves them aside. */
class SessionFolderTest {

  @TempDir Path dir;

  @Test
  void aFolderHoldingOtherFilesIsRefusedUnlessAllowedAndAFreshSessionLeavesItWhereItIs() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("project"));
    Files.writeString(folder.resolve("notes.txt"), "mine");

    assertThatThrownBy(() -> Berth.local(ResumableSession.options(folder)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(folder + " holds files but no Berth run")
        .hasMessageEndingWith("(BerthOptions.builder().allowNonEmptyWorkdir(true))");
    try (var entries = Files.list(folder)) {
      assertThat(entries).containsExactly(folder.resolve("notes.txt"));
    }

    try (Berth berth = Berth.local(ResumableSession.builder(folder).allowNonEmptyWorkdir(true).build())) {
      assertThat(berth.resumed()).isFalse();
    }
    assertThatThrownBy(() -> Berth.local(ResumableSession.builder(folder).fresh(true).build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("held files of its own before its first Berth run");
    assertThat(folder.resolve("notes.txt")).hasContent("mine");
    try (var siblings = Files.list(dir)) {
      assertThat(siblings).containsExactly(folder);
    }
  }
}
