package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.ChildJvm;
import io.github.affinitykit.core.ChurnHolderMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs acquire one CPU, hold it 0-20 ms and release it, in a loop, for {@code
 * -Daffinitykit.churn.seconds} (default 20): 4 Affinity Kit processes in one lock directory, and at
 * the same time 2 Affinity Kit + 2 plain OpenHFT {@code AffinityLock} processes in another. Every
 * hold is an interval of {@code System.nanoTime()} (one monotonic clock for all processes); two
 * intervals of the same CPU that intersect are a double grant. Affinity Kit holders must never
 * overlap each other; overlaps involving OpenHFT are counted and printed, not asserted (OpenHFT
 * deletes its lock file on release, see {@link CpuReservations}).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 120, threadMode = ThreadMode.SEPARATE_THREAD)
class ReservationChurnIT {
  private static final long SECONDS = Long.getLong("affinitykit.churn.seconds", 20);
  private static final int CPU = 1;

  @TempDir Path tmp;
  private final List<ChildJvm> children = new ArrayList<>();

  /** One hold: who ({@code ak-0}, {@code openhft-1}, ...) held the CPU from start to end. */
  record Hold(String holder, long start, long end) {
    boolean ours() {
      return holder.startsWith("ak");
    }
  }

  @AfterEach
  void killChildren() {
    children.forEach(ChildJvm::close);
  }

  private ChildJvm start(String kind, Path locks, Path out) throws IOException {
    List<String> jvm = List.of("-Djava.io.tmpdir=" + locks);
    ChildJvm child =
        ChildJvm.start(
            tmp, jvm, ChurnHolderMain.class, kind, locks.toString(), "" + CPU, out.toString());
    children.add(child);
    return child;
  }

  @Test
  void shouldNeverGrantOneCpuToTwoAffinityKitProcessesWithOrWithoutOpenHftAmongThem()
      throws Exception {
    Map<String, List<String>> scenarios = new TreeMap<>();
    scenarios.put("ak-only", List.of("ak", "ak", "ak", "ak"));
    scenarios.put("ak+openhft", List.of("ak", "openhft", "ak", "openhft"));
    Map<String, List<ChildJvm>> started = new TreeMap<>();
    for (Map.Entry<String, List<String>> s : scenarios.entrySet()) {
      Path locks = Files.createDirectories(tmp.resolve(s.getKey()));
      List<ChildJvm> group = new ArrayList<>();
      for (int i = 0; i < s.getValue().size(); i++) {
        group.add(start(s.getValue().get(i), locks, tmp.resolve(s.getKey() + "-" + i + ".holds")));
      }
      started.put(s.getKey(), group);
    }
    for (ChildJvm child : children) {
      child.awaitLine("READY");
    }
    children.forEach(c -> c.send("go " + SECONDS * 1000));

    for (Map.Entry<String, List<ChildJvm>> s : started.entrySet()) {
      List<String> kinds = scenarios.get(s.getKey());
      List<Hold> holds = new ArrayList<>();
      long lost = 0;
      for (int i = 0; i < kinds.size(); i++) {
        ChildJvm child = s.getValue().get(i);
        String[] done = child.awaitLine("DONE");
        assertThat(Long.parseLong(done[0])).as("holds of %s-%d", kinds.get(i), i).isPositive();
        lost += kinds.get(i).equals("ak") ? Long.parseLong(done[2]) : 0;
        for (String line : Files.readAllLines(tmp.resolve(s.getKey() + "-" + i + ".holds"))) {
          String[] w = line.split(" ");
          holds.add(new Hold(kinds.get(i) + "-" + i, Long.parseLong(w[0]), Long.parseLong(w[1])));
        }
      }
      Map<String, Long> overlaps = overlaps(holds);
      System.out.printf(
          "churn %s, %d s: %d holds (%d Affinity Kit), overlaps %s, Affinity Kit lost %d%n",
          s.getKey(),
          SECONDS,
          holds.size(),
          holds.stream().filter(Hold::ours).count(),
          overlaps,
          lost);
      assertThat(overlaps.get("ak-ak")).as(s.getKey()).isZero();
    }
  }

  /**
   * Counts intersecting pairs of holds by kind: {@code ak-ak}, {@code ak-openhft}, {@code
   * openhft-openhft}. Holds of one process never intersect (it releases before it acquires again).
   */
  static Map<String, Long> overlaps(List<Hold> holds) {
    List<Hold> sorted = new ArrayList<>(holds);
    sorted.sort(Comparator.comparingLong(Hold::start));
    Map<String, Long> out =
        new TreeMap<>(Map.of("ak-ak", 0L, "ak-openhft", 0L, "openhft-openhft", 0L));
    for (int i = 0; i < sorted.size(); i++) {
      Hold a = sorted.get(i);
      for (int j = i + 1; j < sorted.size() && sorted.get(j).start() < a.end(); j++) {
        Hold b = sorted.get(j);
        String key =
            a.ours() && b.ours()
                ? "ak-ak"
                : a.ours() || b.ours() ? "ak-openhft" : "openhft-openhft";
        out.merge(key, 1L, Long::sum);
      }
    }
    return out;
  }

  @Test
  void shouldCountIntersectingHoldsOnlyAndByKind() {
    List<Hold> holds =
        List.of(
            new Hold("ak-0", 0, 10),
            new Hold("ak-1", 10, 20), // touches, does not intersect
            new Hold("ak-2", 15, 16), // inside ak-1
            new Hold("openhft-3", 19, 30), // intersects ak-1
            new Hold("openhft-1", 25, 26)); // inside openhft-3
    assertThat(overlaps(holds))
        .containsEntry("ak-ak", 1L)
        .containsEntry("ak-openhft", 1L)
        .containsEntry("openhft-openhft", 1L);
  }
}
