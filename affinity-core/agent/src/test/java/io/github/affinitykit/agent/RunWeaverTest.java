package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.agent.boot.ThreadHook;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thread classes woven by {@link RunWeaver}, defined in a loader of their own and run: the hook is
 * entered first and exited however {@code run()} ends, with the method's own locals, loops and
 * handlers intact (each started, as the hook binds only the thread that runs), and an outer {@code
 * run()} calling {@code super.run()} binds and lets go once.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RunWeaverTest {
  private final List<String> calls = new CopyOnWriteArrayList<>();

  @AfterEach
  void uninstall() {
    ThreadHook.install(t -> false, t -> {});
  }

  @Test
  void shouldBindOnEntryAndLetGoOnReturn() throws Exception {
    install();
    Thread t = woven(Summing.class);
    assertThat(runOnItself(t)).isNull();
    assertThat(t.getName()).isEqualTo("sum=45 caught=1");
    assertThat(calls).containsExactly("enter", "exit");
  }

  @Test
  void shouldLetGoWhenRunThrows() throws Exception {
    install();
    Thread t = woven(Throwing.class);
    assertThat(runOnItself(t)).isInstanceOf(IllegalStateException.class).hasMessage("boom");
    assertThat(calls).containsExactly("enter", "exit");
  }

  @Test
  void shouldBindOnceThroughSuperRun() throws Exception {
    install();
    Thread t = woven(Outer.class);
    assertThat(runOnItself(t)).isNull();
    assertThat(t.getName()).isEqualTo("inner outer");
    assertThat(calls).containsExactly("enter", "exit");
  }

  @Test
  void shouldLeaveClassesWithoutRunAlone() throws IOException {
    assertThat(RunWeaver.weave(bytes(Object.class))).isNull();
  }

  private void install() {
    boolean[] bound = {false};
    ThreadHook.install(
        t -> {
          if (bound[0]) {
            return false; // the inner run() of an outer one
          }
          bound[0] = true;
          calls.add("enter");
          return true;
        },
        t -> calls.add("exit"));
  }

  /** Starts {@code t} and waits for it; {@return what its run() threw, or null} */
  private static Throwable runOnItself(Thread t) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    t.setUncaughtExceptionHandler((x, e) -> thrown.set(e));
    t.start();
    t.join();
    return thrown.get();
  }

  /** The woven class (and its woven super class), defined in a loader of their own, constructed. */
  private static Thread woven(Class<? extends Thread> type) throws Exception {
    Woven loader = new Woven();
    Class<?> parent = type.getSuperclass();
    if (parent != Thread.class) {
      loader.define(parent);
    }
    return (Thread) loader.define(type).getDeclaredConstructor().newInstance();
  }

  private static byte[] bytes(Class<?> type) throws IOException {
    String name = "/" + type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  private static final class Woven extends ClassLoader {
    Woven() {
      super(RunWeaverTest.class.getClassLoader());
    }

    Class<?> define(Class<?> type) throws IOException {
      byte[] woven = RunWeaver.weave(bytes(type));
      assertThat(woven).as(type.getName()).isNotNull();
      return defineClass(type.getName(), woven, 0, woven.length);
    }
  }

  /** Locals, a loop, a handler of its own. */
  public static final class Summing extends Thread {
    @Override
    public void run() {
      int sum = 0;
      long caught = 0;
      for (int i = 0; i < 10; i++) {
        sum += i;
      }
      try {
        Integer.parseInt("x" + sum);
      } catch (NumberFormatException e) {
        caught++;
      }
      setName("sum=" + sum + " caught=" + caught);
    }
  }

  /** Throws out of run(). */
  public static final class Throwing extends Thread {
    @Override
    public void run() {
      if (getName() != null) {
        throw new IllegalStateException("boom");
      }
    }
  }

  /** Whose run() a subclass calls through super.run(). */
  public static class Inner extends Thread {
    @Override
    public void run() {
      setName("inner");
    }
  }

  /** Calls super.run(), then returns early or late. */
  public static final class Outer extends Inner {
    @Override
    public void run() {
      super.run();
      if (getName().isEmpty()) {
        return;
      }
      setName(getName() + " outer");
    }
  }
}
