package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.jfr.IsolationEvent;
import io.github.affinitykit.core.jfr.LeaseLostEvent;
import io.github.affinitykit.core.jfr.LeaseMovedEvent;
import io.github.affinitykit.core.jfr.LeaseRepinnedEvent;
import io.github.affinitykit.core.jfr.PinnedCpuEvent;
import io.github.affinitykit.core.jfr.ThreadPinnedEvent;
import io.github.affinitykit.core.jfr.ThreadUnpinnedEvent;

/**
 * Builds and commits the events for {@link Flight}, only when a recording enabled them. The only
 * class outside {@code core.jfr} that names {@code jdk.jfr} types. Thread safety: stateless.
 */
final class FlightEvents {
  private FlightEvents() {}

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

  static void unpinned(int cpu, int tid, String status) {
    ThreadUnpinnedEvent e = new ThreadUnpinnedEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.status = status;
      e.commit();
    }
  }

  static void moved(int cpu, int tid, String allowed) {
    LeaseMovedEvent e = new LeaseMovedEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.allowed = allowed;
      e.commit();
    }
  }

  static void lost(int cpu, int tid, String reason) {
    LeaseLostEvent e = new LeaseLostEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.reason = reason;
      e.commit();
    }
  }

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

  static void repinned(int cpu, int tid, boolean repinned, String allowed, String detail) {
    LeaseRepinnedEvent e = new LeaseRepinnedEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.repinned = repinned;
      e.allowed = allowed;
      e.detail = detail;
      e.commit();
    }
  }

  static boolean pinnedCpuEnabled() {
    return new PinnedCpuEvent().isEnabled();
  }

  static void pinnedCpu(PinnedCpuSample s) {
    PinnedCpuEvent e = new PinnedCpuEvent();
    if (e.shouldCommit()) {
      e.cpu = s.cpu();
      e.tid = s.tid();
      e.thread = s.thread();
      e.group = s.group();
      e.status = s.status();
      e.verdict = s.verdict();
      e.intruders = s.intruders();
      e.voluntarySwitches = s.voluntarySwitches();
      e.involuntarySwitches = s.involuntarySwitches();
      e.interval = s.intervalNs();
      e.commit();
    }
  }
}
