package io.github.affinitykit.agent;

import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.TypePath;

/**
 * Rewrites a thread class's own {@code run()} (ASM, as Byte Buddy carries it) so that it calls
 * {@code ThreadHook.enter(this)} first, keeps the answer in a new local (slot 1, the method's own
 * locals moved up by one), and calls {@code ThreadHook.exit(this, bound)} however it ends: before
 * every {@code return}, and in a catch-all handler, last in the exception table, that rethrows. A
 * subclass whose {@code run()} calls {@code super.run()} enters twice; only the outer entry binds,
 * and only its exit lets go. Nothing else of the class changes (no member, no class-format change,
 * as retransformation requires); the stack map frames are kept, each given the new local.
 *
 * <p>Thread safety: stateless.
 */
final class RunWeaver {
  private static final String HOOK = "io/github/affinitykit/agent/boot/ThreadHook";

  private RunWeaver() {}

  /** {@return the class with its {@code run()} woven; {@code null} when it declares none} */
  static byte[] weave(byte[] bytes) {
    ClassReader reader = new ClassReader(bytes);
    ClassWriter writer = new ClassWriter(reader, 0);
    Weaving weaving = new Weaving(writer);
    reader.accept(weaving, ClassReader.EXPAND_FRAMES);
    return weaving.woven() ? writer.toByteArray() : null;
  }

  private static final class Weaving extends ClassVisitor {
    private String owner = "";
    private boolean frames;
    private boolean woven;

    Weaving(ClassVisitor next) {
      super(Opcodes.ASM9, next);
    }

    boolean woven() {
      return woven;
    }

    @Override
    public void visit(
        int version, int access, String name, String signature, String zuper, String[] ifaces) {
      owner = name;
      frames = (version & 0xffff) >= Opcodes.V1_6;
      super.visit(version, access, name, signature, zuper, ifaces);
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String desc, String signature, String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, desc, signature, exceptions);
      int none = Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE;
      if (!"run".equals(name) || !"()V".equals(desc) || (access & none) != 0) {
        return next;
      }
      woven = true;
      return new Run(next, owner, frames);
    }
  }

  /** One {@code run()}: slot 1 is the hook's answer, the method's own slots from 1 on move up. */
  private static final class Run extends MethodVisitor {
    private final String owner;
    private final boolean frames;
    private final Label start = new Label();
    private final Label handler = new Label();

    Run(MethodVisitor next, String owner, boolean frames) {
      super(Opcodes.ASM9, next);
      this.owner = owner;
      this.frames = frames;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      super.visitVarInsn(Opcodes.ALOAD, 0);
      super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "enter", "(Ljava/lang/Object;)Z", false);
      super.visitVarInsn(Opcodes.ISTORE, 1);
      super.visitLabel(start);
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode == Opcodes.RETURN) {
        exit();
      }
      super.visitInsn(opcode);
    }

    @Override
    public void visitVarInsn(int opcode, int slot) {
      super.visitVarInsn(opcode, moved(slot));
    }

    @Override
    public void visitIincInsn(int slot, int increment) {
      super.visitIincInsn(moved(slot), increment);
    }

    @Override
    public void visitLocalVariable(
        String name, String desc, String signature, Label from, Label to, int slot) {
      super.visitLocalVariable(name, desc, signature, from, to, moved(slot));
    }

    @Override
    public AnnotationVisitor visitLocalVariableAnnotation(
        int typeRef,
        TypePath typePath,
        Label[] from,
        Label[] to,
        int[] slots,
        String desc,
        boolean visible) {
      int[] moved = new int[slots.length];
      for (int i = 0; i < slots.length; i++) {
        moved[i] = moved(slots[i]);
      }
      return super.visitLocalVariableAnnotation(typeRef, typePath, from, to, moved, desc, visible);
    }

    @Override
    public void visitFrame(int type, int locals, Object[] local, int stack, Object[] stackTypes) {
      // EXPAND_FRAMES: every frame is F_NEW with all its locals; the answer goes in after this
      Object[] more = new Object[Math.max(locals, 1) + 1];
      more[0] = locals > 0 ? local[0] : Opcodes.TOP;
      more[1] = Opcodes.INTEGER;
      if (locals > 1) {
        System.arraycopy(local, 1, more, 2, locals - 1);
      }
      super.visitFrame(type, more.length, more, stack, stackTypes);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      Label end = new Label();
      super.visitLabel(end);
      super.visitTryCatchBlock(start, end, handler, null); // after the method's own: outermost
      super.visitLabel(handler);
      if (frames) {
        super.visitFrame(
            Opcodes.F_NEW,
            2,
            new Object[] {owner, Opcodes.INTEGER},
            1,
            new Object[] {"java/lang/Throwable"});
      }
      exit();
      super.visitInsn(Opcodes.ATHROW);
      super.visitMaxs(Math.max(maxStack + 2, 3), Math.max(maxLocals, 1) + 1);
    }

    private void exit() {
      super.visitVarInsn(Opcodes.ALOAD, 0);
      super.visitVarInsn(Opcodes.ILOAD, 1);
      super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "exit", "(Ljava/lang/Object;Z)V", false);
    }

    private static int moved(int slot) {
      return slot == 0 ? 0 : slot + 1;
    }
  }
}
