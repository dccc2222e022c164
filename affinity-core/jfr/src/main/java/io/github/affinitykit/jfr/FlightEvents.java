package io.github.affinitykit.jfr;

/**
 * Builds and commits the events for {@link JfrFlight}, only when a recording enabled them. Thread
 * safety: stateless.
 */
final class FlightEvents {
  private FlightEvents() {}

  /** Commits a {@code ThreadPinned} event if a recording enabled it. */
  static void pinned(
      String group,
      String member,
      int cpu,
      int tid,
      String status,
      String reason,
      Object memoryPolicy) {
    ThreadPinnedEvent e = new ThreadPinnedEvent();
    if (e.shouldCommit()) {
      e.group = group;
      e.member = member;
      e.cpu = cpu;
      e.tid = tid;
      e.status = status;
      e.reason = reason;
      e.memoryPolicy = String.valueOf(memoryPolicy); // built only for a recording
      e.commit();
    }
  }

  /** Commits a {@code ThreadReleased} event if a recording enabled it. */
  static void released(int cpu, int tid, String status) {
    ThreadReleasedEvent e = new ThreadReleasedEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.status = status;
      e.commit();
    }
  }

  /** Commits a {@code LeaseMoved} event if a recording enabled it. */
  static void moved(int cpu, int tid, String allowed) {
    LeaseMovedEvent e = new LeaseMovedEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.allowed = allowed;
      e.commit();
    }
  }

  /** Commits a {@code LeaseLost} event if a recording enabled it. */
  static void lost(int cpu, int tid, String reason) {
    LeaseLostEvent e = new LeaseLostEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.reason = reason;
      e.commit();
    }
  }

  /** Commits an {@code Isolation} event if a recording enabled it. */
  static void isolation(String kind, String cpus, String status, String detail) {
    IsolationEvent e = new IsolationEvent();
    if (e.shouldCommit()) {
      e.kind = kind;
      e.cpus = cpus;
      e.status = status;
      e.detail = detail;
      e.commit();
    }
  }
}
