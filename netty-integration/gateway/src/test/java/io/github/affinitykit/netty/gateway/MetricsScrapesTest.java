package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code /metrics} is rendered off the caller, at most once a second, and every scrape meanwhile
 * gets the same text.
 */
class MetricsScrapesTest {
  private static final long SECOND = MetricsScrapes.FRESH.toNanos();

  private final ArrayDeque<Runnable> renderThread = new ArrayDeque<>();
  private final AtomicInteger renders = new AtomicInteger();
  private long now;

  private MetricsScrapes scrapes() {
    return MetricsScrapes.on(
        renderThread::add, () -> "text " + renders.incrementAndGet(), () -> now);
  }

  @Test
  void shouldRenderOnceForScrapesThatComeWhileItRunsAndKeepTheTextForASecond() {
    MetricsScrapes s = scrapes();

    CompletableFuture<String> first = s.text();
    CompletableFuture<String> second = s.text();
    assertThat(first).as("not rendered on the caller").isNotDone();
    assertThat(second).isSameAs(first);
    renderThread.poll().run();
    now += SECOND - 1;

    assertThat(s.text().join()).isEqualTo("text 1");
    assertThat(renderThread).as("no second render within the second").isEmpty();
    now += 1;
    CompletableFuture<String> third = s.text();
    assertThat(third).isNotDone();
    renderThread.poll().run();
    assertThat(third.join()).isEqualTo("text 2");
    assertThat(renders).hasValue(2);
  }

  @Test
  void shouldNotStartASecondRenderWhileOneRunsPastTheSecond() {
    MetricsScrapes s = scrapes();
    CompletableFuture<String> slow = s.text();
    now += 5 * SECOND;

    assertThat(s.text()).isSameAs(slow);
    assertThat(renderThread).hasSize(1);
  }

  @Test
  void shouldAnswerAFailedRenderWithItsFailureUntilItIsStale() {
    AtomicInteger calls = new AtomicInteger();
    MetricsScrapes s =
        MetricsScrapes.on(
            Runnable::run,
            () -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("boom");
              }
              return "ok";
            },
            () -> now);

    assertThatThrownBy(() -> s.text().join())
        .isInstanceOf(CompletionException.class)
        .hasMessageContaining("boom");
    assertThatThrownBy(() -> s.text().join()).hasMessageContaining("boom");
    now += SECOND;
    assertThat(s.text().join()).isEqualTo("ok");
  }

  @Test
  @Timeout(30)
  void shouldRenderOnAThreadOfItsOwn() throws Exception {
    try (MetricsScrapes s = MetricsScrapes.onOwnThread(() -> Thread.currentThread().getName())) {
      assertThat(s.text().get(20, TimeUnit.SECONDS)).isEqualTo("gateway-metrics");
    }
  }

  @Test
  void shouldFailAScrapeOnceClosedInsteadOfThrowingOnTheLoop() {
    MetricsScrapes s =
        MetricsScrapes.on(
            r -> {
              throw new java.util.concurrent.RejectedExecutionException("stopped");
            },
            () -> "never",
            () -> now);

    assertThat(s.text()).isCompletedExceptionally();
  }
}
