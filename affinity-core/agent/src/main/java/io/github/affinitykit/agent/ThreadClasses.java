package io.github.affinitykit.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's transformer: it reads each loaded class's super-class name from its bytes ({@link
 * SuperName}) and weaves ({@link RunWeaver}) only {@code java.lang.Thread} and the classes that
 * derive from it, so that a class that is no thread costs one walk of its constant pool. A super
 * class always loads before its subclasses, so the names of the thread classes seen so far decide;
 * they are kept by name, whatever their loader (a class of another loader with such a name is woven
 * too: the hook takes an {@code Object}, so the class verifies, and binds nothing, as it is no
 * thread).
 *
 * <p>Thread safety: safe for concurrent use (the JVM calls it from any loading thread): the names
 * are a concurrent set.
 */
final class ThreadClasses implements ClassFileTransformer {
  static final String THREAD = "java/lang/Thread";
  private final Instrumentation inst;
  private final Module hook;
  private final Set<String> threads = ConcurrentHashMap.newKeySet();

  /**
   * A transformer weaving calls to {@code hook}.
   *
   * @param inst the JVM's instrumentation: a woven class's module is made to read {@code hook}'s
   * @param hook the class the woven code calls
   */
  ThreadClasses(Instrumentation inst, Class<?> hook) {
    this.inst = inst;
    this.hook = hook.getModule();
    threads.add(THREAD);
  }

  /**
   * Counts {@code type} (a loaded class) as a thread class if it is one; {@return whether it is}
   */
  boolean add(Class<?> type) {
    if (Thread.class.isAssignableFrom(type) && !type.isHidden() && !type.isArray()) {
      threads.add(type.getName().replace('.', '/'));
      return true;
    }
    return false;
  }

  /** {@return whether the class {@code name} with these bytes is Thread or derives from it} */
  boolean isThread(String name, byte[] bytes) {
    if (name == null) {
      return false;
    }
    if (THREAD.equals(name)) {
      return true;
    }
    String parent = SuperName.of(bytes).orElse(null);
    if (parent != null && threads.contains(parent)) {
      threads.add(name);
      return true;
    }
    return false;
  }

  @Override
  @SuppressWarnings("checkstyle:illegalcatch") // a class the agent cannot change loads unchanged
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String name,
      Class<?> redefined,
      ProtectionDomain domain,
      byte[] bytes) {
    try {
      if (!isThread(name, bytes)) {
        return null;
      }
      byte[] woven = RunWeaver.weave(bytes);
      if (woven != null && module != null && module.isNamed() && !module.canRead(hook)) {
        inst.redefineModule(module, Set.of(hook), Map.of(), Map.of(), Set.of(), Map.of());
      }
      return woven;
    } catch (RuntimeException | LinkageError e) {
      return null; // malformed bytes, a class-file version this ASM does not know: left as is
    }
  }
}
