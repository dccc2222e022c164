package io.github.affinitykit.core.host;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An independent reader of hwloc's {@code lstopo} console output (the {@code *.console} answers of
 * hwloc's Linux test trees), written against the format, not against our model.
 *
 * <p>The first part is the object tree, one object per line, nested by two-space indentation:
 * {@code Package L#0 (P#0 ...)}, {@code NUMANode L#1 (P#1 ...)}, {@code Core L#3 (P#1)}, {@code PU
 * L#6 (P#3)}; {@code P#} is the OS index. A NUMANode is a memory child of the object it is indented
 * under (Machine, Package, L3Cache, Group, Die): the PUs below that object are local to it. The
 * part after {@code depth 0:} is a summary: CPU kinds ({@code CPU kind #k efficiency e cpuset
 * 0x...}) and the NUMA latency matrix by NUMANode logical index.
 */
final class HwlocConsole {
  private static final Pattern OBJECT =
      Pattern.compile("^(\\s*)(\\S+)(?: L#(\\d+))?(?: \\(P#(\\d+))?");
  private static final Pattern KIND =
      Pattern.compile("^CPU kind #(\\d+) efficiency \\S+ cpuset (\\S+)");

  /** One object of the tree. */
  static final class Obj {
    final String type;
    final int logical;
    final int os;
    final Obj parent;
    final List<Obj> children = new ArrayList<>();

    Obj(String type, int logical, int os, Obj parent) {
      this.type = type;
      this.logical = logical;
      this.os = os;
      this.parent = parent;
    }

    /** The P# of the PUs in this object's subtree. */
    Set<Integer> pus() {
      Set<Integer> out = new TreeSet<>();
      collect(this, out);
      return out;
    }

    private static void collect(Obj o, Set<Integer> out) {
      if (o.type.equals("PU")) {
        out.add(o.os);
      }
      for (Obj c : o.children) {
        collect(c, out);
      }
    }
  }

  private final List<Obj> objects = new ArrayList<>();
  private final Map<Integer, Obj> pus = new HashMap<>();
  private final Map<Integer, Integer> kindOfPu = new HashMap<>();
  private final Map<List<Integer>, Integer> latency = new HashMap<>();
  private int kinds;

  static HwlocConsole parse(String text) {
    HwlocConsole c = new HwlocConsole();
    String[] lines = text.split("\n");
    int i = c.parseTree(lines);
    c.parseSummary(lines, i);
    return c;
  }

  private int parseTree(String[] lines) {
    Deque<Obj> stack = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    int i = 0;
    for (; i < lines.length && !lines[i].startsWith("depth 0:"); i++) {
      Matcher m = OBJECT.matcher(lines[i]);
      if (!m.find()) {
        throw new IllegalArgumentException("not an object line: " + lines[i]);
      }
      int depth = m.group(1).length();
      while (!depths.isEmpty() && depths.peek() >= depth) {
        depths.pop();
        stack.pop();
      }
      Obj parent = stack.peek();
      Obj o =
          new Obj(
              m.group(2),
              m.group(3) == null ? -1 : Integer.parseInt(m.group(3)),
              m.group(4) == null ? -1 : Integer.parseInt(m.group(4)),
              parent);
      if (parent != null) {
        parent.children.add(o);
      }
      objects.add(o);
      if (o.type.equals("PU")) {
        pus.put(o.os, o);
      }
      stack.push(o);
      depths.push(depth);
    }
    return i;
  }

  private void parseSummary(String[] lines, int from) {
    for (int i = from; i < lines.length; i++) {
      Matcher k = KIND.matcher(lines[i]);
      if (k.find()) {
        kinds++;
        int kind = Integer.parseInt(k.group(1));
        BigInteger bits = new BigInteger(k.group(2).replace("0x", "").replace(",", ""), 16);
        for (int pu = bits.getLowestSetBit(); pu >= 0 && pu < bits.bitLength(); pu++) {
          if (bits.testBit(pu)) {
            kindOfPu.put(pu, kind);
          }
        }
      } else if (lines[i].startsWith("Relative latency matrix")) {
        i = parseMatrix(lines, i + 2);
      }
    }
  }

  /** Rows {@code from-index v0 v1 ...} by NUMANode logical index; returns the last row's line. */
  private int parseMatrix(String[] lines, int first) {
    List<Obj> nodes = objects.stream().filter(o -> o.type.equals("NUMANode")).toList();
    int i = first;
    for (; i < lines.length && lines[i].trim().matches("\\d+(\\s+\\d+)+"); i++) {
      String[] v = lines[i].trim().split("\\s+");
      int from = nodeByLogical(nodes, Integer.parseInt(v[0]));
      for (int to = 1; to < v.length; to++) {
        latency.put(List.of(from, nodeByLogical(nodes, to - 1)), Integer.parseInt(v[to]));
      }
    }
    return i - 1;
  }

  private static int nodeByLogical(List<Obj> nodes, int logical) {
    return nodes.stream().filter(n -> n.logical == logical).findFirst().orElseThrow().os;
  }

  /** The P# of every PU shown. */
  Set<Integer> pus() {
    return new TreeSet<>(pus.keySet());
  }

  /** How many objects of the type are shown, with or without PUs. */
  long count(String type) {
    return objects.stream().filter(o -> o.type.equals(type)).count();
  }

  /** How many objects of the type hold at least one PU. */
  long countWithPus(String type) {
    return objects.stream().filter(o -> o.type.equals(type) && !o.pus().isEmpty()).count();
  }

  /** The P# of the PU's Package, or -1 if it is in none. */
  int packageOf(int pu) {
    Obj a = ancestor(pu, "Package");
    return a == null ? -1 : a.os;
  }

  /** The PUs of the nearest ancestor of the type ({@code Core}, {@code L2Cache}...), or none. */
  Set<Integer> groupOf(int pu, String type) {
    Obj a = ancestor(pu, type);
    return a == null ? Set.of() : a.pus();
  }

  /**
   * The P# of the NUMANode attached to the nearest ancestor that has one, or -1 if no ancestor has
   * (hwloc hid it).
   */
  int nodeOf(int pu) {
    for (Obj a = pus.get(pu).parent; a != null; a = a.parent) {
      List<Obj> nodes = a.children.stream().filter(c -> c.type.equals("NUMANode")).toList();
      if (nodes.size() > 1) {
        throw new IllegalStateException("PU " + pu + ": several NUMANodes under " + a.type);
      }
      if (nodes.size() == 1) {
        return nodes.get(0).os;
      }
    }
    return -1;
  }

  /** The number of CPU kinds listed. */
  int kinds() {
    return kinds;
  }

  /** The index of the PU's CPU kind ({@code CPU kind #k}), or -1 if it is in none. */
  int kindOf(int pu) {
    return kindOfPu.getOrDefault(pu, -1);
  }

  /** The NUMA latency matrix by node P#: {@code [from, to] -> value}; empty if none is printed. */
  Map<List<Integer>, Integer> latency() {
    return latency;
  }

  private Obj ancestor(int pu, String type) {
    Obj o = pus.get(pu);
    if (o == null) {
      throw new IllegalArgumentException("no PU P#" + pu);
    }
    for (Obj a = o.parent; a != null; a = a.parent) {
      if (a.type.equals(type)) {
        return a;
      }
    }
    return null;
  }
}
