package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.isolation.Change;
import io.github.affinitykit.core.isolation.IsolationReport;
import io.github.affinitykit.core.isolation.Residue;

/**
 * An {@link IsolationReport} as the guest reports it: every field, changes counted by kind and
 * outcome, the failed and left ones listed.
 *
 * <p>Thread safety: stateless.
 */
final class IsolationJson {
  private IsolationJson() {}

  static ObjectNode of(IsolationReport r, ObjectNode into) {
    into.put("status", r.status().name())
        .put("cpus", r.cpus().toString())
        .put("housekeeping", r.housekeeping().toString())
        .put("mechanism", r.mechanism().name())
        .put("refusal", r.refusal())
        .put("ownerPid", r.ownerPid())
        .put("journal", r.journal())
        .put("bootCommandLine", r.bootCommandLine())
        .put("text", r.text());
    ArrayNode reasons = into.putArray("reasons");
    r.reasons().forEach(reasons::add);
    ArrayNode recovered = into.putArray("recovered");
    r.recovered().forEach(recovered::add);
    ObjectNode counts = into.putObject("counts");
    for (Change c : r.changes()) {
      String key = c.kind() + "_" + c.outcome();
      counts.put(key, counts.path(key).asInt() + 1);
    }
    ArrayNode odd = into.putArray("failed");
    r.changes().stream()
        .filter(c -> c.outcome() == Change.Outcome.FAILED || c.outcome() == Change.Outcome.LEFT)
        .forEach(c -> odd.add(c.toString()));
    ArrayNode residues = into.putArray("residues");
    for (Residue x : r.residues()) {
      residues.addObject().put("kind", x.kind().name()).put("detail", x.detail());
    }
    return into;
  }
}
