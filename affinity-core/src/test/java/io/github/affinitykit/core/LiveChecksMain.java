package io.github.affinitykit.core;

import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.LinuxAffinityBackendTest;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * Child process of {@code NoexecPinningIT}: runs the live pinning checks in this JVM, as it was
 * started (a {@code noexec} temporary directory and home), and prints what it found, a line each:
 * {@code BACKEND <supported> <reason>}, {@code MOUNT <options of java.io.tmpdir's mount>}, {@code
 * CHECK <class>.<method> PASS|FAIL|SKIP <detail>} for every test of the backend contract ({@link
 * LinuxAffinityBackendTest}) and of {@link LivePinningIT}, {@code EXTRACTED <files in the temporary
 * directory and home>}, then {@code DONE}.
 */
final class LiveChecksMain {
  private LiveChecksMain() {}

  public static void main(String[] args) throws Exception {
    AffinityBackend backend = AffinityBackend.detect();
    System.out.println("BACKEND " + backend.isSupported() + " " + backend.reason());
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    System.out.println("MOUNT " + mountOf(tmp));
    if (backend.isSupported()) {
      run(new LinuxAffinityBackendTest(), LinuxAffinityBackendTest.class.getSuperclass(), null);
      run(new LivePinningIT(), LivePinningIT.class, Files.createTempDirectory(tmp, "locks"));
    }
    System.out.println("EXTRACTED " + files(tmp));
    System.out.println("DONE");
  }

  /** Runs every {@code @Test} of {@code type} on {@code test}, after its {@code @BeforeEach}. */
  private static void run(Object test, Class<?> type, Path locks) throws Exception {
    List<Method> tests =
        Arrays.stream(type.getDeclaredMethods())
            .filter(m -> m.isAnnotationPresent(Test.class))
            .sorted(Comparator.comparing(Method::getName))
            .toList();
    for (Method m : tests) {
      String name = test.getClass().getSimpleName() + "." + m.getName();
      try {
        if (locks != null) {
          Field f = type.getDeclaredField("locks");
          f.setAccessible(true);
          f.set(test, Files.createTempDirectory(locks, "t"));
          invoke(test, type.getDeclaredMethod("setUp"));
        } else {
          invoke(test, type.getMethod("setUpBackend"));
        }
        invoke(test, m);
        System.out.println("CHECK " + name + " PASS");
      } catch (TestAbortedException e) {
        System.out.println("CHECK " + name + " SKIP " + e.getMessage());
      } catch (AssertionError | RuntimeException e) {
        System.out.println("CHECK " + name + " FAIL " + e.toString().replace('\n', ' '));
      }
    }
  }

  private static void invoke(Object test, Method m) throws Exception {
    m.setAccessible(true);
    try {
      m.invoke(test);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception x) {
        throw x;
      }
      throw (Error) e.getCause();
    }
  }

  /**
   * The file system type and options of the mount {@code path} is on ({@code /proc/self/mounts}).
   */
  private static String mountOf(Path path) throws IOException {
    String found = "";
    int longest = -1;
    String p = path.toRealPath().toString();
    for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
      String[] f = line.split(" ");
      boolean under = p.equals(f[1]) || p.startsWith(f[1].endsWith("/") ? f[1] : f[1] + "/");
      if (f.length > 3 && under && f[1].length() > longest) {
        longest = f[1].length();
        found = f[2] + " " + f[3];
      }
    }
    return found;
  }

  /** The files under {@code dir} that are not this run's lock directories. */
  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString())
          .filter(p -> !p.startsWith("locks"))
          .sorted()
          .toList();
    }
  }
}
