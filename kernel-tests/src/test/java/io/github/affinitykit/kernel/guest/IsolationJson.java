package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.isolation.Change;
import io.github.affinitykit.isolation.IsolationReport;

/**
 * An {@link IsolationReport} as the guest reports it: the command line's JSON, plus the report's
 * text and the changes that failed or were left, for the host's assertions and messages.
 *
 * <p>Thread safety: stateless.
 */
final class IsolationJson {
  private IsolationJson() {}

  static ObjectNode of(IsolationReport r, ObjectNode into) {
    into.setAll(io.github.affinitykit.core.cli.IsolationJson.tree(r));
    into.put("text", r.text());
    ArrayNode odd = into.putArray("failed");
    r.changes().stream()
        .filter(c -> c.outcome() == Change.Outcome.FAILED || c.outcome() == Change.Outcome.LEFT)
        .forEach(c -> odd.add(c.toString()));
    return into;
  }
}
