package io.github.affinitykit.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the agent costs a thread's start, measured in three runs of this one benchmark: without the
 * agent, with a rule no thread here matches ({@code nothing-*}: the cost every unmatched thread
 * pays), and with a rule that matches these threads ({@code bench-start-*}: each thread is pinned
 * before its task runs and released when it ends). The threads are named {@code bench-start-N}.
 *
 * <ul>
 *   <li>{@code startAndJoin}: create, start and join a thread whose task is empty.
 *   <li>{@code startToTask}: from {@code Thread.start()} to the first line of the thread's task, a
 *       distribution; with a matching rule the thread is pinned by then (the agent binds in the
 *       prologue of {@code run()}), so this is the start-to-pinned time. The join is outside it.
 * </ul>
 *
 * <p>Run from the repository root after {@code mvn -B -pl affinity-core/agent,jmh-benchmarks -am
 * package -DskipTests}, with a lock directory of its own:
 *
 * <pre>
 * java -jar jmh-benchmarks/target/benchmarks.jar ThreadStartBenchmark -f 2 -wi 3 -i 5 -w 1s -r 1s
 * java -jar jmh-benchmarks/target/benchmarks.jar ThreadStartBenchmark -f 2 -wi 3 -i 5 -w 1s -r 1s \
 *   -jvmArgsAppend "-Daffinitykit.lock.dir=/tmp/ts-locks
 *     -javaagent:affinity-core/agent/target/affinity-agent.jar=nothing-*=count:1"
 * (the same with =bench-start-*=count:1)
 * </pre>
 *
 * <p>Thread safety: JMH runs one benchmark thread per state instance.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ThreadStartBenchmark {
  private static final Runnable NOTHING = () -> {};

  private long started;
  private Thread last;

  /** Start, then join, a thread with an empty task. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public void startAndJoin() throws InterruptedException {
    Thread t = new Thread(NOTHING, "bench-start-" + started++);
    t.start();
    t.join();
  }

  /** {@code Thread.start()} to the first line of the task; the join follows, untimed. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  public void startToTask() throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    last = new Thread(entered::countDown, "bench-start-" + started++);
    last.start();
    entered.await();
  }

  /** Joins the thread {@link #startToTask} started, so no two of them run at once. */
  @TearDown(Level.Invocation)
  public void join() throws InterruptedException {
    if (last != null) {
      last.join();
      last = null;
    }
  }
}
