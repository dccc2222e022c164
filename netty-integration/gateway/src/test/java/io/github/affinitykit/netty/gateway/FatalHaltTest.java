package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.FixtureKits;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.Isolator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link VirtualMachineError} in any thread puts an active isolation back before the halt, and
 * halts anyway once the bound has passed; on a fixture host whose isolator writes only into the
 * fixture tree (the halt is recorded, not made).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FatalHaltTest {
  @TempDir Path root;

  private final List<Integer> halts = new CopyOnWriteArrayList<>();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private FatalHalt handler(FatalRestorer restorer) {
    return new FatalHalt(restorer, new PrintStream(err, true, StandardCharsets.UTF_8), halts::add);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** CPU 3 of a fixture host isolated by the isolator of its tree. */
  private Isolation isolate() {
    return Isolation.of(
        FixtureKits.isolating(root, 4, b -> Isolator.at(root, b, root.resolve("journal")))
            .isolate(CpuSet.of(3)));
  }

  @Test
  void shouldPutTheIsolationBackThenHaltWhenAThreadDiesOfOutOfMemory() {
    Isolation iso = isolate();
    assertThat(iso.isActive()).as(iso.report().text()).isTrue();
    FatalRestorer restorer = FatalRestorer.start();
    restorer.watch(iso);

    handler(restorer).uncaughtException(new Thread("worker-0"), new OutOfMemoryError("heap"));

    assertThat(halts).containsExactly(GatewayMain.EXIT_FATAL);
    assertThat(iso.isActive()).isFalse();
    assertThat(iso.released().journal()).as("journal deleted: all undone").isEmpty();
    assertThat(err())
        .matches(
            "gateway: fatal: java\\.lang\\.OutOfMemoryError: heap in thread worker-0; halting\n"
                + "gateway: isolation restored before halting \\(\\d+ ms\\)\n");
  }

  @Test
  void shouldHaltOnceTheBoundHasPassedWhenTheUndoCannotRun() throws Exception {
    Isolation iso = isolate();
    FatalRestorer restorer = FatalRestorer.start();
    restorer.watch(iso, Duration.ofMillis(200)); // --restore-timeout 200ms
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch letGo = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              synchronized (iso) { // close() is synchronized: the undo waits for this thread
                holding.countDown();
                try {
                  letGo.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            });
    holder.start();
    try {
      assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
      long t0 = System.nanoTime();

      handler(restorer).uncaughtException(new Thread("main"), new StackOverflowError());

      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
      assertThat(halts).containsExactly(GatewayMain.EXIT_FATAL);
      assertThat(iso.isActive()).as("left to the journal").isTrue();
      assertThat(err())
          .endsWith("gateway: isolation not restored within 200 ms: run affinity-cli release\n");
    } finally {
      letGo.countDown();
      holder.join(TimeUnit.SECONDS.toMillis(20));
      iso.close();
    }
  }

  @Test
  void shouldHaltAtOnceWhenNothingIsIsolated() {
    Isolation refused = isolate();
    refused.close(); // undone already: nothing left to restore
    FatalRestorer restorer = FatalRestorer.start(Duration.ofDays(1));
    restorer.watch(refused);

    handler(restorer).uncaughtException(new Thread("boss-0"), new InternalError("jit"));

    assertThat(halts).containsExactly(GatewayMain.EXIT_FATAL);
    assertThat(err())
        .isEqualTo("gateway: fatal: java.lang.InternalError: jit in thread boss-0; halting\n");
  }

  @Test
  void shouldPrintAnyOtherThrowableAndNotHalt() {
    handler(FatalRestorer.start())
        .uncaughtException(new Thread("t"), new IllegalStateException("not fatal"));

    assertThat(halts).isEmpty();
    assertThat(err())
        .startsWith("Exception in thread \"t\" java.lang.IllegalStateException: not fatal");
  }
}
