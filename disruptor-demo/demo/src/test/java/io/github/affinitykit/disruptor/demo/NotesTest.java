package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NotesTest {
  @Test
  void shouldJoinOnlyTheFailedChecksInOrder() {
    Notes notes = new Notes();
    notes.check(true, "warm-up not drained");
    notes.check(false, "burst not drained");
    notes.check(false, "paced cut at 12 events");
    assertThat(notes).hasToString("burst not drained; paced cut at 12 events");
  }

  @Test
  void shouldBeEmptyWhenEveryCheckHeld() {
    Notes notes = new Notes();
    notes.check(true, "burst not drained");
    assertThat(notes.toString()).isEmpty();
  }
}
