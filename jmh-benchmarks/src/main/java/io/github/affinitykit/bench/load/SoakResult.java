package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a soak saw, and whether it passed: no resource GROWING (one too short to judge or not
 * published is shown as such), no lost or failed message among the steady connections, no lost
 * cycle among the well-behaved short-lived clients, no thread's mask moved, every sample taken.
 *
 * <p>Thread safety: immutable (the histogram inside {@code steady} is not read after).
 *
 * @param options what the soak did
 * @param steady the steady connections' load, over the recorded window
 * @param cycles well-behaved short-lived client cycles
 * @param echoes their echoes received
 * @param broadcasts broadcasts both room members saw
 * @param lostCycles well-behaved cycles that lost an echo, pong, broadcast or close
 * @param lastLoss why the latest lost cycle counted, empty if none
 * @param hostile hostile cycles by kind
 * @param answered hostile cycles the gateway answered as their kind calls for, by kind
 * @param samples the resource samples, in time order
 * @param p99PerMinuteUs the steady connections' p99 of each whole minute, µs
 * @param trends one per resource
 * @param sampleError the latest failure to take a sample, empty if none
 */
record SoakResult(
    SoakOptions options,
    LoadResult steady,
    long cycles,
    long echoes,
    long broadcasts,
    long lostCycles,
    String lastLoss,
    Map<SoakClients.Hostile, Long> hostile,
    Map<SoakClients.Hostile, Long> answered,
    List<SoakSample> samples,
    List<Double> p99PerMinuteUs,
    List<SoakTrend> trends,
    String sampleError) {

  static SoakResult of(
      SoakOptions o,
      LoadResult steady,
      SoakClients c,
      List<SoakSample> samples,
      List<Double> p99PerMinuteUs,
      String sampleError) {
    List<SoakTrend> trends = new ArrayList<>();
    double from = (o.warmup().toMillis() + o.duration().toMillis() / 2.0) / 1e3;
    for (SoakSample.Resource r : SoakSample.Resource.values()) {
      trends.add(SoakTrend.of(r, samples, from, SoakTrend.judged(r, o.duration())));
    }
    return new SoakResult(
        o,
        steady,
        c.cycles(),
        c.echoes(),
        c.broadcasts(),
        c.lost(),
        c.lastLoss(),
        c.hostile(),
        c.answered(),
        List.copyOf(samples),
        List.copyOf(p99PerMinuteUs),
        List.copyOf(trends),
        sampleError);
  }

  /** {@return the most threads whose mask differed from the first sample's, in any sample} */
  int masksChanged() {
    return samples.stream().mapToInt(SoakSample::masksChanged).max().orElse(0);
  }

  /** {@return why the soak failed, one reason a line; empty when it passed} */
  List<String> failures() {
    List<String> out = new ArrayList<>();
    for (SoakTrend t : trends) {
      if (t.verdict() == SoakTrend.Verdict.GROWING) {
        out.add(t.resource().label() + " " + t.verdict());
      }
    }
    if (steady.lost() > 0 || steady.errors() > 0) {
      out.add(
          "steady connections: "
              + steady.lost()
              + " lost, "
              + steady.errors()
              + " errors (expected: 0)");
    }
    if (lostCycles > 0) {
      out.add(
          "well-behaved clients: " + lostCycles + " cycles lost (expected: 0); last: " + lastLoss);
    }
    if (masksChanged() > 0) {
      out.add(masksChanged() + " threads' masks moved during the soak (expected: 0)");
    }
    if (!sampleError.isEmpty()) {
      out.add("a sample failed: " + sampleError);
    }
    return out;
  }
}
