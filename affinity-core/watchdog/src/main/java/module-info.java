/**
 * Affinity Kit's watchdog ({@code io.github.affinitykit.watchdog}): a daemon thread that runs the
 * lease's own checks on every pinned thread of a kit periodically (moved, lost), re-pins a moved
 * thread by its {@code RepinPolicy}, optionally audits the pinned CPUs (affinity-audit, through
 * core's {@code CpuAuditor}), tells each change once to its listeners and to Flight Recorder, and
 * samples each pinned thread for a recording. A pin needs none of it, so it is an artifact of its
 * own, built on affinity-core: the lease's checks a caller can run itself stay there, and the steps
 * the watchdog needs beyond them (a loss told once, the move's number, a re-pin) reach it through
 * core's {@code internal.lease}, exported to this module alone.
 */
module io.github.affinitykit.watchdog {
  requires transitive io.github.affinitykit.core;
  // a pinned thread's context switches for its samples (TaskStatus, the report's /proc readers)
  requires io.github.affinitykit.hostreport;
  // the LeaseRepinned and PinnedCpu Flight Recorder events, committed only where the runtime has
  // the module
  requires static jdk.jfr;

  exports io.github.affinitykit.watchdog;
}
