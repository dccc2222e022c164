package io.github.affinitykit.core.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The library's Flight Recorder events of a recording, read back from its file as a user's tools
 * would: the events named {@code io.github.affinitykit.*}, in order.
 *
 * <p>Thread safety: stateless.
 */
public final class KitEvents {
  /** The prefix of every event the library commits. */
  public static final String PREFIX = "io.github.affinitykit.";

  private KitEvents() {}

  /**
   * Stops {@code recording}, writes it to {@code file} and reads the library's events back.
   *
   * @param recording a started recording
   * @param file where to write it
   * @return the library's events, in the order recorded
   * @throws IOException if the file cannot be written or read
   */
  public static List<RecordedEvent> stopAndRead(Recording recording, Path file) throws IOException {
    recording.stop();
    recording.dump(file);
    return RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().startsWith(PREFIX))
        .toList();
  }
}
