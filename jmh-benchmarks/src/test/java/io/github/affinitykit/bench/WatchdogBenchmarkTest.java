package io.github.affinitykit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.watchdog.WatchReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The watchdog benchmark's state on this host: 16 real threads pinned, one quiet check of all. */
@Timeout(60)
class WatchdogBenchmarkTest {
  @Test
  void shouldCheckEverySharedLeaseAndFindNothingWhenNothingMoved() throws Exception {
    Assumptions.assumeTrue(AffinityBackend.detect().isSupported(), "this host cannot pin");
    WatchdogBenchmark b = new WatchdogBenchmark();
    b.leases = 16;
    b.setUp();
    try {
      WatchReport r = b.check();

      assertThat(r.leases()).isEqualTo(16);
      assertThat(r.events()).isEmpty();
      assertThat(r.audit()).isEmpty();
      assertThat(b.statuses()).containsOnly(LeaseStatus.SHARED, LeaseStatus.PINNED).isNotEmpty();
    } finally {
      b.tearDown();
    }
    assertThat(b.statuses()).isEmpty(); // every thread ended and gave its place up
    assertThat(b.locks()).doesNotExist(); // its lock files and their directory deleted
  }
}
