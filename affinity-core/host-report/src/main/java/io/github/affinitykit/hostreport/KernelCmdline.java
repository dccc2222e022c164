package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.internal.text.Printable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The CPU-isolation parameters of the kernel command line ({@code /proc/cmdline}).
 *
 * <p>{@code isolcpus=[flags,]list}: flags are {@code domain}, {@code nohz}, {@code managed_irq};
 * with no flag the kernel applies {@code domain}. The list must start with a digit. {@code
 * nohz_full=}, {@code rcu_nocbs=} and {@code irqaffinity=} take plain cpu lists. Everything after a
 * bare {@code --} belongs to init and is ignored, as the kernel does. A list that does not parse is
 * kept as raw text in {@link #problems()} rather than failing the probe: the doctor must still
 * explain a host with a typo on its command line.
 *
 * <p>Thread safety: immutable.
 *
 * @param raw the whole command line
 * @param isolcpus the {@code isolcpus} CPU list, empty if absent
 * @param isolcpusFlags the {@code isolcpus} flags in force ({@code domain} when none was given)
 * @param nohzFull the {@code nohz_full} list, empty if absent
 * @param rcuNocbs the {@code rcu_nocbs} list, empty if absent
 * @param irqAffinity the {@code irqaffinity} list, empty if absent
 * @param problems parameters that could not be parsed, with the reason
 */
public record KernelCmdline(
    String raw,
    CpuSet isolcpus,
    Set<String> isolcpusFlags,
    CpuSet nohzFull,
    CpuSet rcuNocbs,
    CpuSet irqAffinity,
    List<String> problems) {

  private static final Set<String> ISOLCPUS_FLAGS = Set.of("domain", "nohz", "managed_irq");

  /**
   * Validates and copies.
   *
   * @param raw the whole command line; not null
   * @param isolcpus the {@code isolcpus} CPU list, empty if absent; not null
   * @param isolcpusFlags the flags in force, empty without {@code isolcpus}; copied
   * @param nohzFull the {@code nohz_full} list, empty if absent; not null
   * @param rcuNocbs the {@code rcu_nocbs} list, empty if absent; not null
   * @param irqAffinity the {@code irqaffinity} list, empty if absent; not null
   * @param problems the parameters that could not be parsed, with the reason; copied
   */
  public KernelCmdline {
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(isolcpus, "isolcpus");
    isolcpusFlags = Set.copyOf(isolcpusFlags);
    Objects.requireNonNull(nohzFull, "nohzFull");
    Objects.requireNonNull(rcuNocbs, "rcuNocbs");
    Objects.requireNonNull(irqAffinity, "irqAffinity");
    problems = List.copyOf(problems);
  }

  /**
   * Reads {@code /proc/cmdline} of {@code host}, under its {@link HostCpus#root() root}, now.
   *
   * @param host the host whose command line to read; not null
   * @return the parameters; every list empty if the file is missing
   */
  public static KernelCmdline of(HostCpus host) {
    return read(new SysFs(host.root()), host);
  }

  /** {@code /proc/cmdline} under {@code fs}, for a machine of {@code host}'s possible CPUs. */
  static KernelCmdline read(SysFs fs, HostCpus host) {
    return parse(fs.read("/proc/cmdline").orElse(""), host.topology().possibleCount());
  }

  /**
   * Parses a command line for a machine of {@code nbits} possible CPUs.
   *
   * @param cmdline the text of {@code /proc/cmdline}, possibly empty; not null
   * @param nbits the host's mask width ({@code CpuTopology.possibleCount()}): {@code N} in a list
   *     means {@code nbits - 1}, and an id of {@code nbits} or more is a problem
   * @return the parameters; a list that does not parse is empty and named in {@code problems}
   */
  public static KernelCmdline parse(String cmdline, int nbits) {
    Map<String, String> params = params(Objects.requireNonNull(cmdline, "cmdline"));
    List<String> problems = new ArrayList<>();
    Set<String> flags = new TreeSet<>();
    CpuSet isol = CpuSet.empty();
    String iso = params.get("isolcpus");
    if (iso != null) {
      String rest = iso;
      while (!rest.isEmpty() && Character.isLetter(rest.charAt(0))) {
        int comma = rest.indexOf(',');
        String flag = comma < 0 ? rest : rest.substring(0, comma);
        if (!ISOLCPUS_FLAGS.contains(flag)) {
          problems.add(
              "isolcpus: unknown flag \""
                  + Printable.of(flag)
                  + "\" (expected: domain, nohz, managed_irq)");
        } else {
          flags.add(flag);
        }
        rest = comma < 0 ? "" : rest.substring(comma + 1);
      }
      if (flags.isEmpty()) {
        flags.add("domain"); // the kernel's default when no scheduler flag is given
      }
      isol = list("isolcpus", rest, nbits, problems);
    }
    return new KernelCmdline(
        cmdline,
        isol,
        iso == null ? Set.of() : flags,
        list("nohz_full", params.getOrDefault("nohz_full", ""), nbits, problems),
        list("rcu_nocbs", params.getOrDefault("rcu_nocbs", ""), nbits, problems),
        list("irqaffinity", params.getOrDefault("irqaffinity", ""), nbits, problems),
        problems);
  }

  /**
   * Returns the value of a parameter (the last one wins, as in the kernel), if present.
   *
   * @param name the parameter's name, without {@code =}, e.g. {@code "isolcpus"}
   * @return the text after the first {@code =} with quotes removed, empty text for a bare word;
   *     empty if absent or only after a bare {@code --}
   */
  public Optional<String> param(String name) {
    return Optional.ofNullable(params(raw).get(name));
  }

  private static CpuSet list(String name, String value, int nbits, List<String> problems) {
    try {
      return CpuSet.parse(value, nbits);
    } catch (IllegalArgumentException e) {
      problems.add(name + ": " + e.getMessage());
      return CpuSet.empty();
    }
  }

  /** Splits on spaces outside double quotes, stops at a bare {@code --}; last occurrence wins. */
  private static Map<String, String> params(String cmdline) {
    Map<String, String> out = new LinkedHashMap<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < cmdline.length(); i++) {
      char c = cmdline.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && Character.isWhitespace(c)) {
        if (word.length() > 0) {
          words.add(word.toString());
          word.setLength(0);
        }
      } else {
        word.append(c);
      }
    }
    if (word.length() > 0) {
      words.add(word.toString());
    }
    for (String w : words) {
      if (w.equals("--")) {
        break;
      }
      int eq = w.indexOf('=');
      out.put(eq < 0 ? w : w.substring(0, eq), eq < 0 ? "" : w.substring(eq + 1));
    }
    return out;
  }
}
