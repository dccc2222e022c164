package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.disruptor.PinnedDisruptor;
import io.github.affinitykit.disruptor.PinnedDisruptorBuilder;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitChoice;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Sections that run the project's applications in the guest: the Disruptor wait advisor and demo,
 * the gateway with an echo client, and the load test.
 *
 * <p>Thread safety: sections; run on the guest program's main thread.
 */
final class AppSections {
  private static final int OUTPUT = 6000;

  private AppSections() {}

  /** The advisor's choice for 1P→1C with everything pinned, then the demo's 1P→1C run with it. */
  static void disruptor(ObjectNode data, PrintStream log) throws Exception {
    try (PinnedDisruptor<long[]> pd =
        PinnedDisruptor.builder(AffinityKit.shared(), () -> new long[1])
            .consumers(1)
            .pinning(Pinning.ALL)
            .group(PinnedDisruptorBuilder.defaultGroup(AffinityKit.shared(), "advice"))
            .build()) {
      WaitChoice c = pd.choice();
      data.put("strategy", c.strategy().name()).put("reason", c.reason());
      data.put("producer", c.producer().toString());
      var consumers = data.putArray("consumers");
      for (WaitAdvice p : c.consumers()) {
        consumers.add(p.toString());
      }
      log.println(c.describe());
    }
    try (Child demo =
        Child.start(
            "demo",
            Child.java(
                "-cp",
                System.getProperty("kernel.classpath"),
                "io.github.affinitykit.disruptor.demo.DemoMain",
                "--quick",
                "--warmup-ms",
                "0",
                "--shapes",
                "1",
                "--pinning",
                "all",
                "--strategies",
                "chosen"))) {
      data.put("demoExit", demo.await(300));
      data.put("demoOutput", demo.output(OUTPUT));
      log.println(demo.output(OUTPUT));
    }
  }

  /** The gateway pinned on the pool (exclusive mode), an echo client, SIGTERM. */
  static void gateway(ObjectNode data, PrintStream log) throws Exception {
    int port = 8080;
    Files.createDirectories(Path.of("/tmp/gateway-locks"));
    try (Child gw =
        Child.start(
            "gateway",
            Child.java(
                "-Djava.io.tmpdir=/tmp/gateway-locks",
                "-jar",
                System.getProperty("kernel.gatewayJar"),
                "--port",
                String.valueOf(port),
                "--pin",
                "exclusive",
                "--workers",
                "2"))) {
      long start = System.nanoTime();
      boolean up = EchoClient.awaitHealth(port, 180);
      data.put("healthy", up).put("startMs", (System.nanoTime() - start) / 1_000_000);
      if (up) {
        EchoClient.run(port, 4, 50, data.putObject("echo"));
        data.put("metrics", EchoClient.get(port, "/metrics"));
      }
      data.put("exit", gw.stop(60));
      data.put("output", gw.output(OUTPUT));
      log.println(gw.output(OUTPUT));
    }
  }

  /** The load test once, with disjoint server, client and housekeeping CPUs, tiny rates. */
  static void loadTest(ObjectNode data, PrintStream log) throws Exception {
    CpuSet pool = AffinityKit.shared().pool().cpus();
    CpuSet housekeeping = AffinityKit.shared().pool().housekeeping();
    int[] p = pool.toArray();
    CpuSet server = CpuSet.of(p[p.length - 4], p[p.length - 3]);
    CpuSet client = CpuSet.of(p[p.length - 2], p[p.length - 1]);
    data.put("server", server.toString())
        .put("client", client.toString())
        .put("housekeeping", housekeeping.toString());
    try (Child lt =
        Child.start(
            "loadtest",
            Child.java(
                "-cp",
                System.getProperty("kernel.classpath"),
                "io.github.affinitykit.bench.load.LoadTest",
                "--jar",
                System.getProperty("kernel.gatewayJar"),
                "--quick", // one trial each, no controls, no re-runs
                "--scenarios",
                "pinned,exclusive", // what an isolcpus host changes; the others run on the host's
                // ITs
                "--connections",
                "2",
                "--rate",
                "100",
                "--warmup",
                "3s", // the steady-state criterion's least
                "--duration",
                "2s",
                "--capacity-probes",
                "0",
                "--budget",
                "300s", // under TCG a trial takes 35-80 s; the section waits 360 s
                "--server-cpus",
                server.toString(),
                "--client-cpus",
                client.toString(),
                "--housekeeping-cpus",
                housekeeping.toString(),
                "--out",
                "/tmp/loadtest"))) {
      data.put("exit", lt.await(360));
      data.put("output", lt.output(OUTPUT));
      log.println(lt.output(OUTPUT));
    }
    Path results = Path.of("/tmp/loadtest/results.json");
    if (Files.exists(results)) {
      data.set("results", GuestMain.JSON.readTree(results.toFile()));
    }
  }
}
