package io.github.affinitykit.core.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.isolation.Change;
import io.github.affinitykit.isolation.IsolationJournal;
import io.github.affinitykit.isolation.IsolationReport;
import io.github.affinitykit.isolation.Residue;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Isolation reports and journals as JSON: every field of {@link IsolationReport}, each change and
 * residue an object. Used by {@code isolate --json}, {@code release --json} and the doctor.
 *
 * <p>Thread safety: stateless; the mapper is thread-safe once configured.
 */
public final class IsolationJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private IsolationJson() {}

  /** The report as a JSON tree. */
  public static ObjectNode tree(IsolationReport r) {
    ObjectNode m = MAPPER.createObjectNode();
    m.put("status", r.status().name())
        .put("cpus", r.cpus().toString())
        .put("housekeeping", r.housekeeping().toString())
        .put("mechanism", r.mechanism().name())
        .put("refusal", r.refusal())
        .put("ownerPid", r.ownerPid())
        .put("journal", r.journal())
        .put("bootCommandLine", r.bootCommandLine());
    strings(m.putArray("reasons"), r.reasons());
    strings(m.putArray("recovered"), r.recovered());
    ArrayNode changes = m.putArray("changes");
    for (Change c : r.changes()) {
      changes
          .addObject()
          .put("kind", c.kind().name())
          .put("id", c.id())
          .put("name", c.name())
          .put("before", c.before())
          .put("after", c.after())
          .put("outcome", c.outcome().name())
          .put("detail", c.detail());
    }
    ArrayNode residues = m.putArray("residues");
    for (Residue x : r.residues()) {
      residues
          .addObject()
          .put("kind", x.kind().name())
          .put("cpus", x.cpus().toString())
          .put("detail", x.detail());
    }
    return m;
  }

  /** A journal found, as a JSON tree. */
  public static ObjectNode tree(IsolationJournal j) {
    return MAPPER
        .createObjectNode()
        .put("journal", j.journal())
        .put("ownerPid", j.ownerPid())
        .put("owner", j.owner().name())
        .put("cpus", j.cpus().toString())
        .put("mechanism", j.mechanism().name())
        .put("problem", j.problem())
        .put("describe", j.describe());
  }

  /** Reports as a JSON array, one per line-broken document. */
  static String render(List<IsolationReport> reports) {
    ArrayNode a = MAPPER.createArrayNode();
    reports.forEach(r -> a.add(tree(r)));
    return write(a);
  }

  /** One report as a JSON document. */
  static String render(IsolationReport report) {
    return write(tree(report));
  }

  private static String write(Object tree) {
    try {
      return MAPPER.writeValueAsString(tree) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // a tree of strings and numbers always writes
    }
  }

  private static void strings(ArrayNode into, List<String> values) {
    values.forEach(into::add);
  }
}
