package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The load test's server, client and housekeeping CPUs (the pinned gateways' boss, GC and JIT),
 * chosen from the doctor's model of the host where the command line names none, and the line that
 * says why.
 *
 * <p>The rules, on the host's physical cores (a core's reachable CPUs, SMT siblings together), so
 * that no two roles share a core:
 *
 * <ul>
 *   <li>housekeeping: one core of the doctor's housekeeping CPUs ({@link CpuPool#housekeeping()}),
 *       on the server's NUMA node when it has one there, if at least one core is left for each of
 *       the server and the client; else none of its own (the pinned gateways' other threads then
 *       run beside the client, as on a 2-CPU machine);
 *   <li>server: cores of the doctor's pool ({@link CpuPool#cpus()}: the isolated CPUs when there
 *       are, every CPU but the housekeeping core otherwise), whole pool cores first, all on the
 *       NUMA node of the first of them; half of the cores left (rounded up), or as many cores as a
 *       given client has;
 *   <li>client: as many cores as the server, on another NUMA node when there is one (the nearest
 *       first), cores outside the pool (not isolated) before pool cores.
 * </ul>
 *
 * <p>A role given on the command line is kept as given and its cores are left out of the others'.
 * When the host has too few cores for a core each (one core with two threads), the roles share
 * cores: the client the first quarter of the CPUs left (one at least), the server the rest, no
 * housekeeping of its own; the line says so.
 *
 * <p>Thread safety: immutable; {@link #of} is a pure function of its arguments.
 *
 * @param server the server's CPUs (the pinned runs' pool, the taskset run's mask)
 * @param client the CPUs the client's threads are confined to
 * @param housekeeping the pinned gateways' boss, GC and JIT CPUs; empty: every CPU but the server's
 * @param explanation one line: each role's CPUs, cores and NUMA nodes, and where it came from
 */
record CpuRoles(CpuSet server, CpuSet client, CpuSet housekeeping, String explanation) {
  /** Validates. */
  CpuRoles {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(housekeeping, "housekeeping");
    Objects.requireNonNull(explanation, "explanation");
  }

  /** The roles for {@code host} with nothing given. */
  static CpuRoles of(HostCpus host) {
    return of(host, Optional.empty(), Optional.empty(), Optional.empty());
  }

  /**
   * The roles for {@code host}, keeping each role that is given.
   *
   * @throws IllegalArgumentException if the host's pool override is bad (as {@link
   *     HostCpus#pool()})
   */
  static CpuRoles of(
      HostCpus host,
      Optional<CpuSet> server,
      Optional<CpuSet> client,
      Optional<CpuSet> housekeeping) {
    HostCores cores = new HostCores(host, host.pool());
    CpuSet given = server.orElse(CpuSet.empty()).union(client.orElse(CpuSet.empty()));
    given = given.union(housekeeping.orElse(CpuSet.empty()));
    CpuSet left = host.reachable().minus(given);
    List<HostCores.Core> free = cores.outside(given);
    int needed = (server.isPresent() ? 0 : 1) + (client.isPresent() ? 0 : 1);
    if (free.size() < needed || server.isEmpty() && cores.poolCores(free, -1).isEmpty()) {
      return shared(left, server, client, housekeeping, free.size());
    }
    int serverNode =
        server.map(cores::nodeOf).orElseGet(() -> cores.firstPoolNode(free).orElse(-1));
    Optional<HostCores.Core> home =
        housekeeping.isPresent() || free.size() < needed + 1
            ? Optional.empty()
            : cores.housekeepingCore(free, serverNode);
    home.ifPresent(free::remove);
    int half = (free.size() + 1) / 2;
    CpuSet s =
        server.orElseGet(
            () -> cores.server(free, serverNode, client.map(cores::coreCount).orElse(half)));
    free.removeIf(core -> core.cpus().intersects(s));
    CpuSet c = client.orElseGet(() -> cores.client(free, serverNode, cores.coreCount(s)));
    if (s.isEmpty() || c.isEmpty()) {
      return shared(left, server, client, housekeeping, free.size());
    }
    CpuSet h = housekeeping.orElse(home.map(HostCores.Core::cpus).orElse(CpuSet.empty()));
    String line =
        "CPUs from the host: "
            + cores.describe("server", s, server.isPresent() ? "--server-cpus" : "")
            + ", "
            + cores.describe("client", c, client.isPresent() ? "--client-cpus" : "")
            + ", "
            + (housekeeping.isPresent() || home.isPresent()
                ? cores.describe(
                    "housekeeping",
                    h,
                    home.isPresent() ? "the doctor's housekeeping CPUs" : "--housekeeping-cpus")
                : "no housekeeping CPUs of its own (too few cores: the pinned gateways' boss, GC"
                    + " and JIT run beside the client)");
    return new CpuRoles(s, c, h, line);
  }

  /**
   * Too few cores for one per role: the roles not given share the CPUs {@code left}, the client the
   * first quarter of them (one at least).
   */
  private static CpuRoles shared(
      CpuSet left,
      Optional<CpuSet> server,
      Optional<CpuSet> client,
      Optional<CpuSet> housekeeping,
      int freeCores) {
    int[] ids = left.toArray();
    CpuSet c =
        client.orElseGet(() -> CpuSet.of(Arrays.copyOf(ids, Math.min(ids.length, quarter(ids)))));
    CpuSet s = server.orElseGet(() -> left.minus(c));
    CpuSet h = housekeeping.orElse(CpuSet.empty());
    String line =
        "CPUs from the host: server "
            + s
            + ", client "
            + c
            + ", housekeeping "
            + (h.isEmpty() ? "none of its own" : h.toString())
            + " (only "
            + freeCores
            + (freeCores == 1 ? " core" : " cores")
            + " for them: they share cores)";
    return new CpuRoles(s, c, h, line);
  }

  private static int quarter(int[] ids) {
    return Math.max(1, ids.length / 4);
  }
}
