package io.github.affinitykit.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code results.json} through Jackson: the run's settings, the host facts, the calibration, the
 * verdicts (records, as Jackson writes them) and every trial.
 *
 * <p>Thread safety: stateless.
 */
final class ResultsJson {
  private ResultsJson() {}

  static void write(LoadTestOptions o, LoadOutcome outcome, Judgement j, Path file)
      throws IOException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("date", ZonedDateTime.now().toString());
    doc.put("gateway", o.gateway().describe());
    doc.put("host", outcome.host().rows());
    doc.put("serverCpus", o.serverCpus().toString());
    doc.put("clientCpus", o.clientCpus().toString());
    doc.put("housekeepingCpus", o.housekeepingCpus().toString());
    doc.put("connections", o.load().connections());
    doc.put("ratePerSecond", outcome.rate());
    doc.put("trialRatesPerSecond", List.of(j.point().lowRate(), j.point().highRate()));
    doc.put("calibration", outcome.calibration().orElse(null));
    doc.put("targetCpuPercent", o.search().targetCpuPercent());
    doc.put("unpinnedMedianCpuPercentOfServer", j.point().medianPercent());
    doc.put("unpinnedTrialsInMedian", j.point().trials());
    doc.put("operatingPointMissed", j.point().missed());
    doc.put("sloP99Ms", o.search().slo().toNanos() / 1e6);
    doc.put("payloadBytes", o.load().payloadBytes());
    doc.put("warmupLimitSeconds", o.load().warmup().toMillis() / 1e3);
    doc.put("steadyState", SteadyState.RULE);
    doc.put("durationSeconds", o.load().duration().toMillis() / 1e3);
    doc.put("idleWindowSeconds", o.search().idleWindow().toMillis() / 1e3);
    doc.put("serverArgs", o.serverArgs());
    doc.put("noiseThresholdPercent", o.noiseThresholdPercent());
    doc.put("pressureThresholdPercent", o.pressureThresholdPercent());
    doc.put("budgetSeconds", o.search().budget().toSeconds());
    doc.put("elapsedSeconds", outcome.elapsed().toMillis() / 1e3);
    doc.put("budgetSpent", outcome.budgetSpent());
    doc.put("verdict", j.lines());
    doc.put("verdictMethod", Verdict.METHOD);
    doc.put("verdicts", j.verdicts());
    Map<String, Object> controls = new LinkedHashMap<>();
    controls.put("state", j.controls().state());
    controls.put("aa", j.controls().aa());
    controls.put("handicapped", j.controls().handicap());
    controls.put("handicapCpus", outcome.handicap().cpus());
    controls.put("handicapWorkNsPerMessage", outcome.handicap().workNs());
    controls.put("expectedHandicapRatio", j.controls().expectedRatio());
    doc.put("controls", controls);
    doc.put("notes", outcome.notes());
    List<Object> rows = new ArrayList<>();
    for (Trial t : outcome.trials()) {
      rows.add(trial(t));
    }
    doc.put("trials", rows);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), doc);
  }

  private static Map<String, Object> trial(Trial t) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("scenario", t.scenario().label());
    r.put("trial", t.repeat() + 1);
    r.put("usable", t.usable());
    r.put("ratePerSecond", t.rate());
    r.put("warmup", t.warmup());
    r.put("messagesPerSecond", t.load().messagesPerSecond());
    r.put("sent", t.load().sent());
    r.put("received", t.load().received());
    r.put("lost", t.load().lost());
    r.put("outOfOrder", t.load().outOfOrder());
    r.put("errors", t.load().errors());
    r.put("serverCpuPercent", t.serverCpuPercent());
    r.put("cpuUsPerMessage", t.cpuUsPerMessage());
    r.put("idleCpuPercent", Double.isFinite(t.idleCpuPercent()) ? t.idleCpuPercent() : null);
    r.put("voluntarySwitchesPerSecond", t.voluntaryPerSecond());
    r.put("involuntarySwitchesPerSecond", t.involuntaryPerSecond());
    r.put("switchesPerMessage", t.switchesPerMessage());
    double msgs = Math.max(1, t.load().messagesPerSecond());
    r.put("voluntarySwitchesPerMessage", t.voluntaryPerSecond() / msgs);
    r.put("involuntarySwitchesPerMessage", t.involuntaryPerSecond() / msgs);
    r.put("migrationsPerSecond", t.migrationsPerSecond());
    r.put("pressurePercent", t.pressurePercent());
    r.put("othersCpuPercent", t.othersCpuPercent());
    r.put("contaminated", t.contaminated());
    r.put("capacity", t.capacity());
    Map<String, Object> lat = new LinkedHashMap<>();
    for (double p : ScenarioSummary.percentiles()) {
      lat.put(String.valueOf(p), t.load().latencyUs(p));
    }
    lat.put("max", t.load().latencyNs().getMaxValue() / 1e3);
    r.put("latencyUs", lat);
    return r;
  }
}
