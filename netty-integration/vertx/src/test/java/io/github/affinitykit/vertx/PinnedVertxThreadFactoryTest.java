package io.github.affinitykit.vertx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Vert.x built as an application builds it ({@code Vertx.vertx(options)}: the factory comes from
 * ServiceLoader) on {@link AffinityKit#shared()} (its locks in this module's target/, the build's
 * java.io.tmpdir; its pool every CPU of the process): an HTTP server verticle per event loop
 * answers the JDK's HTTP client, and the kernel's mask of every loop, of each answering thread and
 * of a worker is read back.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class PinnedVertxThreadFactoryTest {
  private final Map<String, Thread> started = new ConcurrentHashMap<>();
  private final Set<Integer> ports = ConcurrentHashMap.newKeySet();
  private AffinityKit kit;
  private String processMask;

  @BeforeAll
  static void poolOfEveryCpu() {
    KernelMask.poolOfEveryCpu();
  }

  @BeforeEach
  void setUp() {
    kit = AffinityKit.shared();
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
    assumeTrue(kit.pool().cpus().size() >= 2, "needs a pool of 2 CPUs");
    processMask = KernelMask.here().split("\\|")[1];
  }

  @AfterEach
  void tearDown() {
    System.clearProperty(PinnedVertxThreadFactory.PIN_PROPERTY);
  }

  @Test
  void shouldPinEveryEventLoopOfAnHttpServerAndFreeTheCpusOnClose() throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    List<Assignment> loops;
    try {
      deploy(vertx, 2); // one verticle per loop: each start() says where its loop runs
      loops = PinnedVertxThreadFactory.installed();
      assertThat(loops)
          .hasSize(2)
          .allSatisfy(a -> assertThat(a.status()).isEqualTo(LeaseStatus.PINNED));
      assertThat(loops.stream().map(Assignment::cpu).distinct()).hasSize(2);
      Map<String, Assignment> byThread =
          loops.stream().collect(Collectors.toMap(Assignment::threadName, Function.identity()));
      assertThat(started.keySet()).isEqualTo(byThread.keySet());

      List<String> answers = new ArrayList<>();
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      for (int port : ports) {
        for (int i = 0; i < 4; i++) {
          answers.add(
              client
                  .send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body());
        }
      }
      assertThat(answers).hasSize(4 * ports.size());
      for (String answer : answers) { // thread|mask, from the loop that served the request
        String[] seen = answer.split("\\|");
        assertThat(byThread).containsKey(seen[0]);
        assertThat(seen[1]).isEqualTo(String.valueOf(byThread.get(seen[0]).cpu()));
      }
      // a worker made by a pinned loop runs on the process's CPUs, not on that loop's one
      String worker = await(vertx.executeBlocking(KernelMask::here));
      assertThat(worker.split("\\|")[1]).isEqualTo(processMask);
    } finally {
      await(vertx.close());
    }
    for (Thread t : started.values()) {
      t.join(TimeUnit.SECONDS.toMillis(20));
      assertThat(t.isAlive()).isFalse();
    }
    assertThat(PinnedVertxThreadFactory.installed()).isEmpty();
    for (Assignment a : loops) { // freed: this thread may take each CPU
      try (CpuLease lease = kit.pinCurrentThread(a.cpu())) {
        assertThat(lease.status()).as(lease.reason()).isEqualTo(LeaseStatus.PINNED);
      }
    }
  }

  @Test
  void shouldPinWorkersAfterTheLoopsWhenAsked() throws Exception {
    System.setProperty(PinnedVertxThreadFactory.PIN_PROPERTY, "loops+workers");
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    try {
      deploy(vertx, 1);
      String worker = await(vertx.executeBlocking(KernelMask::here));
      List<Assignment> pinned = PinnedVertxThreadFactory.installed();
      assertThat(pinned)
          .extracting(Assignment::threadName)
          .containsExactly("vert.x-eventloop-thread-0", "vert.x-worker-thread-0");
      assertThat(pinned).allSatisfy(a -> assertThat(a.status()).isEqualTo(LeaseStatus.PINNED));
      assertThat(pinned.get(0).cpu()).isNotEqualTo(pinned.get(1).cpu());
      assertThat(worker).isEqualTo("vert.x-worker-thread-0|" + pinned.get(1).cpu());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void shouldLeaveVertxsThreadsAloneWhenToldNone() throws Exception {
    System.setProperty(PinnedVertxThreadFactory.PIN_PROPERTY, "none");
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try {
      deploy(vertx, 1);
      assertThat(PinnedVertxThreadFactory.installed()).isEmpty();
      assertThat(started.keySet()).containsExactly("vert.x-eventloop-thread-0");
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void shouldRefuseAnUnknownPinSetting() {
    System.setProperty(PinnedVertxThreadFactory.PIN_PROPERTY, "everything");
    assertThatThrownBy(PinnedVertxThreadFactory::new)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("affinitykit.vertx.pin: everything (expected: loops, loops+workers or none)");
  }

  private void deploy(Vertx vertx, int instances) throws Exception {
    await(vertx.deployVerticle(Echo::new, new DeploymentOptions().setInstances(instances)));
  }

  /** What {@code future} completes with; 30 s at most. */
  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /** An HTTP server on its event loop: answers every request with the loop's name and mask. */
  private final class Echo extends VerticleBase {
    @Override
    public Future<?> start() {
      started.put(Thread.currentThread().getName(), Thread.currentThread());
      return vertx
          .createHttpServer()
          .requestHandler(req -> req.response().end(KernelMask.here()))
          .listen(0, "127.0.0.1")
          .onSuccess(s -> ports.add(s.actualPort()));
    }
  }
}
