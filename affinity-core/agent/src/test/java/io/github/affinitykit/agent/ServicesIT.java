package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Services no one here wrote, as Maven Central ships them, in a child JVM under the agent jar, each
 * with a lock directory of its own: an Apache Kafka broker in KRaft mode ({@code kafka.Kafka}) and
 * a Reactor Netty {@code HttpServer} ({@link HelloReactor}). A real client round trip passes, then
 * every thread's kernel mask is read back from {@code /proc/<pid>/task/<tid>/status} and matched to
 * its whole Java name through a thread dump taken from outside ({@code jcmd}; {@code /proc} keeps
 * 15 characters: {@code data-plane-kafk}): each thread a rule names is pinned as its rule says,
 * every other thread keeps the process's mask. Needs CPUs 0 and 1.
 */
@EnabledOnOs(OS.LINUX)
class ServicesIT {
  // Kafka: 2 pools of 8 request handlers (broker and controller), 3 network threads per listener.
  // The handlers share CPU 1 (runout:SHARE); one network thread holds CPU 0, the others run out
  // unpinned (runout UNPINNED, the default).
  static final String KAFKA_RULES =
      "data-plane-kafka-request-handler-*=count:1,cpus:1,runout:SHARE;"
          + "data-plane-kafka-network-thread-*=count:1,cpus:0";
  // Reactor Netty: max(CPUs, 4) event loops, started as connections come; all share CPU 1
  static final String REACTOR_RULES = "reactor-http-epoll-*=count:1,cpus:1,runout:SHARE";

  // the agent's verbose line for a thread bound by a rule
  private static final Pattern BOUND =
      Pattern.compile(
          "^affinity-agent: (.+) \\(tid (\\d+)\\): (PINNED|SHARED|UNPINNED) cpu (-?\\d+) by"
              + " ([^=]+)=");

  @TempDir Path dir;

  @BeforeEach
  void needsTwoCpus() {
    ChildJvm.assumeCpus0And1();
  }

  @Test
  @Timeout(120)
  void shouldPinAKafkaBrokersNetworkAndRequestHandlerThreadsByName() throws Exception {
    int broker = freePort();
    int controller = freePort();
    Path config = Files.writeString(dir.resolve("server.properties"), kafka(broker, controller));
    String cp = classPath(false);
    List<String> format =
        List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString());
    try (ChildJvm tool =
        ChildJvm.start(dir, List.of(), cp, "kafka.tools.StorageTool", format, Map.of())) {
      assertThat(tool.exit()).as("kafka-storage format: %s", tool.lines()).isZero();
    }
    try (ChildJvm c =
        ChildJvm.start(
            dir, agentArgs(KAFKA_RULES), cp, "kafka.Kafka", List.of("" + config), Map.of())) {
      String bootstrap = "127.0.0.1:" + broker;
      roundTrip(bootstrap, "pinned", List.of("a", "b", "c"));
      Map<String, List<Bound>> byRule = assertEveryThreadAsItsRuleSays(c, KAFKA_RULES);
      List<Bound> handlers = byRule.get("data-plane-kafka-request-handler-*");
      assertThat(handlers).as("more request handlers than CPUs").hasSizeGreaterThan(2);
      assertThat(handlers).filteredOn(b -> b.status().equals("PINNED")).hasSize(1);
      assertThat(handlers)
          .filteredOn(b -> !b.status().equals("PINNED"))
          .allMatch(b -> b.status().equals("SHARED") && b.cpu() == 1);
      List<Bound> network = byRule.get("data-plane-kafka-network-thread-*");
      assertThat(network).as("more network threads than CPUs").hasSizeGreaterThan(2);
      assertThat(network).filteredOn(b -> b.status().equals("PINNED")).hasSize(1);
      assertThat(network)
          .filteredOn(b -> !b.status().equals("PINNED"))
          .allMatch(b -> b.status().equals("UNPINNED"));
    }
  }

  @Test
  @Timeout(120)
  void shouldPinAReactorNettyServersEventLoopsByName() throws Exception {
    try (ChildJvm c =
        ChildJvm.start(
            dir,
            agentArgs(REACTOR_RULES),
            classPath(true),
            HelloReactor.class.getName(),
            List.of("0"),
            Map.of())) {
      String port = c.await("listening on ").substring("listening on ".length());
      URI hello = URI.create("http://127.0.0.1:" + port + "/hello");
      // a client per connection: the server's loops take the connections in turn, each loop's
      // thread starting with its first
      for (int i = 0; i < 4; i++) {
        HttpResponse<String> r =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                    HttpRequest.newBuilder(hello).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).startsWith("hello from reactor-http-epoll-");
      }
      List<Bound> loops =
          assertEveryThreadAsItsRuleSays(c, REACTOR_RULES).get("reactor-http-epoll-*");
      assertThat(loops).as("more event loops than CPUs").hasSizeGreaterThan(2);
      assertThat(loops).filteredOn(b -> b.status().equals("PINNED")).hasSize(1);
      assertThat(loops)
          .filteredOn(b -> !b.status().equals("PINNED"))
          .allMatch(b -> b.status().equals("SHARED") && b.cpu() == 1);
    }
  }

  /**
   * Reads every thread of {@code c} back: a thread whose whole Java name (the thread dump's) a rule
   * names was bound by the agent, by that rule, and its kernel mask is what its binding says; every
   * other thread but the agent's own ({@code affinity-*}) has the process's mask (its main
   * thread's). The child's output has no agent line but the start line and those bindings. {@return
   * the bindings of the threads now alive, by rule}
   */
  private static Map<String, List<Bound>> assertEveryThreadAsItsRuleSays(ChildJvm c, String rules)
      throws IOException, InterruptedException {
    Map<String, String> names = c.names();
    String unpinned = c.mask("" + c.pid());
    List<String> globs = new ArrayList<>();
    for (String rule : rules.split(";")) {
      globs.add(rule.substring(0, rule.indexOf('=')));
    }
    Map<String, List<Bound>> byRule = new HashMap<>();
    Set<String> ruled = new HashSet<>();
    for (String name : names.values()) {
      if (globs.stream().anyMatch(g -> matches(g, name))) {
        ruled.add(comm(name));
      }
    }
    List<Map.Entry<String, String>> threads = new ArrayList<>(names.entrySet());
    threads.sort(Map.Entry.comparingByValue());
    for (Map.Entry<String, String> t : threads) {
      String tid = t.getKey();
      String name = t.getValue();
      String glob = globs.stream().filter(g -> matches(g, name)).findFirst().orElse(null);
      String mask;
      try {
        mask = c.mask(tid);
      } catch (NoSuchFileException gone) {
        continue;
      }
      if (glob != null) {
        // the thread's own line, printed once it is bound: its mask is read after it
        Matcher m = BOUND.matcher(c.await("affinity-agent: " + name + " (tid " + tid + "): "));
        assertThat(m.find()).as("%s (tid %s) bound by the agent", name, tid).isTrue();
        Bound b =
            new Bound(m.group(1), m.group(2), m.group(3), Integer.parseInt(m.group(4)), m.group(5));
        mask = c.mask(tid);
        assertThat(b.glob()).isEqualTo(glob);
        String expected = b.status().equals("UNPINNED") ? unpinned : "" + b.cpu();
        assertThat(mask).as("%s (tid %s): %s", name, tid, b.status()).isEqualTo(expected);
        byRule.computeIfAbsent(glob, g -> new ArrayList<>()).add(b);
        System.out.printf("%s (tid %s): %s, Cpus_allowed_list %s%n", name, tid, b.status(), mask);
      } else if (!name.startsWith("affinity-")) {
        assertThat(mask).as("%s (tid %s) matches no rule", name, tid).isEqualTo(unpinned);
        if (ruled.contains(comm(name))) { // what /proc alone could not tell apart
          System.out.printf("%s (tid %s): no rule, Cpus_allowed_list %s%n", name, tid, mask);
        }
      }
    }
    List<String> agentLines =
        c.lines().stream()
            .filter(l -> l.startsWith("affinity-agent: ") && !BOUND.matcher(l).find())
            .toList();
    assertThat(agentLines).as("agent lines but bindings").hasSize(1);
    assertThat(agentLines.get(0)).startsWith("affinity-agent: [");
    System.out.printf(
        "%d threads; %d named by a rule; every other thread on %s%n",
        names.size(), byRule.values().stream().mapToInt(List::size).sum(), unpinned);
    return byRule;
  }

  /** {@return the name /proc gives thread {@code name}: its first 15 characters} */
  private static String comm(String name) {
    return name.substring(0, Math.min(15, name.length()));
  }

  /** The agent's glob: {@code *} any characters, {@code ?} one, the whole name. */
  private static boolean matches(String glob, String name) {
    StringBuilder regex = new StringBuilder();
    for (char ch : glob.toCharArray()) {
      regex.append(ch == '*' ? ".*" : ch == '?' ? "." : Pattern.quote("" + ch));
    }
    return name.matches(regex.toString());
  }

  /** Produces {@code values} to a new one-partition topic and reads them back. */
  private static void roundTrip(String bootstrap, String topic, List<String> values)
      throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    try (Admin admin = Admin.create(p)) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (String v : values) {
        producer.send(new ProducerRecord<>(topic, v)).get();
      }
    }
    TopicPartition tp = new TopicPartition(topic, 0);
    List<String> read = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      while (read.size() < values.size()) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
          read.add(r.value());
        }
      }
    }
    assertThat(read).containsExactlyElementsOf(values);
  }

  /** A one-node KRaft cluster, broker and controller in one process, on 127.0.0.1. */
  private String kafka(int broker, int controller) {
    return String.join(
        "\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controller,
        "listeners=PLAINTEXT://127.0.0.1:" + broker + ",CONTROLLER://127.0.0.1:" + controller,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + broker,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + dir.resolve("logs"),
        "num.partitions=1",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "log.segment.bytes=1048576",
        "");
  }

  /** The agent with {@code rules}, verbose, its locks in the test's directory; a small heap. */
  private List<String> agentArgs(String rules) {
    return List.of(
        "-Xmx256m",
        "-XX:TieredStopAtLevel=1",
        "-Daffinitykit.lock.dir=" + dir,
        "-Daffinitykit.agent.verbose=true",
        ChildJvm.agent(rules));
  }

  /**
   * The services' class path: the jars of this JVM's class path less the kit's own, those the agent
   * jar carries (JNA, Byte Buddy) and the test frameworks'; with this module's test classes if
   * {@code tests}.
   */
  private static String classPath(boolean tests) {
    List<String> keep = new ArrayList<>();
    List<String> not =
        List.of(
            "/io/github/affinitykit/",
            "/net/bytebuddy/",
            "/net/java/dev/jna/",
            "/org/junit/",
            "/org/assertj/",
            "/org/opentest4j/",
            "/org/apiguardian/",
            "surefire",
            "failsafe");
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String path = e.replace(File.separatorChar, '/');
      if (path.endsWith(".jar") && not.stream().noneMatch(path::contains)) {
        keep.add(e);
      }
    }
    if (tests) {
      keep.add(Path.of("target", "test-classes").toAbsolutePath().toString());
    }
    return String.join(File.pathSeparator, keep);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** One agent line: thread {@code name} (kernel {@code tid}) bound by rule {@code glob}. */
  record Bound(String name, String tid, String status, int cpu, String glob) {}
}
