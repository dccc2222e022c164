package io.github.affinitykit.core.internal.natives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.testkit.NativeLayers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every implementation of the native layer (JNA; {@code java.lang.foreign} on JDK 22+) answers
 * every call alike: results, and {@code -errno} for a refusal, never an exception.
 */
@EnabledOnOs(OS.LINUX)
class NativeCallsTest {
  @TempDir Path tmp;

  @Test
  void shouldAnswerTheThreadCallsAlike() {
    for (NativeLayer layer : NativeLayers.each()) {
      ThreadCalls calls = layer.threads().orElseThrow();
      long[] mask = new long[16];
      assertThat(calls.getAffinity(0, mask)).as(layer.name()).isZero();
      assertThat(Arrays.stream(mask).anyMatch(w -> w != 0)).isTrue();
      assertThat(calls.getAffinity(0, new long[0])).isEqualTo(-Errno.EINVAL);
      assertThat(calls.getAffinity(Integer.MAX_VALUE, mask)).isEqualTo(-Errno.ESRCH);
      assertThat(calls.setAffinity(0, mask)).isZero();
      assertThat(calls.setAffinity(0, new long[16])).isEqualTo(-Errno.EINVAL);
      assertThat(calls.currentCpu()).isNotNegative();
      assertThat(calls.threadId()).isPositive().isEqualTo(calls.threadId());
    }
  }

  /**
   * A count larger than its array, a negative one ({@code size_t} makes it huge), a path without
   * its NUL or a short {@code statx} buffer would let the kernel read or write past the array: each
   * is refused before the call, with the value and the rule, on every implementation.
   */
  @Test
  void shouldRefuseACountPastItsBufferBeforeTheCallAlike() {
    for (NativeLayer layer : NativeLayers.each()) {
      FileCalls calls = layer.files().orElseThrow();
      byte[] buf = new byte[16];
      byte[] path = NativeLayer.cString(tmp.toString());

      assertThatThrownBy(() -> calls.pread(-1, buf, 17, 0))
          .as(layer.name())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("count: 17 (expected: <= 16, the buffer's length)");
      assertThatThrownBy(() -> calls.pwrite(-1, buf, 17, 0))
          .hasMessage("count: 17 (expected: <= 16, the buffer's length)");
      assertThatThrownBy(() -> calls.pread(-1, buf, -1, 0))
          .hasMessage("count: -1 (expected: >= 0)");
      assertThatThrownBy(() -> calls.pwrite(-1, buf, Integer.MIN_VALUE, 0))
          .hasMessage("count: -2147483648 (expected: >= 0)");
      byte[] noNul = Arrays.copyOf(path, path.length - 1);
      assertThatThrownBy(() -> calls.open(noNul, FileCalls.O_CLOEXEC, 0))
          .hasMessageStartingWith("path: " + noNul.length + " bytes without a closing NUL");
      assertThatThrownBy(() -> calls.statx(FileCalls.AT_FDCWD, noNul, 0, 1, new byte[256]))
          .hasMessageStartingWith("path: ");
      assertThatThrownBy(() -> calls.statx(FileCalls.AT_FDCWD, path, 0, 1, new byte[255]))
          .hasMessage("buf.length: 255 (expected: >= 256, STATX_BYTES)");

      // at the bounds: made, and the kernel answers (EBADF for fd -1)
      assertThat(calls.pread(-1, buf, buf.length, 0)).isEqualTo(-9);
      assertThat(calls.pwrite(-1, buf, 0, 0)).isEqualTo(-9);
      assertThat(calls.statx(FileCalls.AT_FDCWD, path, 0, 1, new byte[256])).isZero();
    }
  }

  @Test
  @Timeout(60)
  void shouldSignalAProcessAlikeAndAnswerErrnoForNoneOrABadSignal() throws Exception {
    for (NativeLayer layer : NativeLayers.each()) {
      ThreadCalls calls = layer.threads().orElseThrow();
      int self = (int) ProcessHandle.current().pid();
      assertThat(calls.kill(self, 0)).as(layer.name()).isZero();
      assertThat(calls.kill(self, 999)).isEqualTo(-Errno.EINVAL);
      assertThat(calls.kill(Integer.MAX_VALUE, 0)).isEqualTo(-Errno.ESRCH);
      Process child = new ProcessBuilder("/bin/sleep", "60").start();
      try {
        assertThat(calls.kill((int) child.pid(), ThreadCalls.SIGKILL)).isZero();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("128 + SIGKILL").isEqualTo(137);
      } finally {
        child.destroyForcibly();
      }
    }
  }

  @Test
  void shouldAnswerTheFileCallsAlike() throws IOException {
    for (NativeLayer layer : NativeLayers.each()) {
      FileCalls calls = layer.files().orElseThrow();
      Path file = tmp.resolve(layer.name().substring(0, 3) + ".lock");
      byte[] path = NativeLayer.cString(file.toString());
      int flags = FileCalls.O_RDWR | FileCalls.O_CLOEXEC | calls.abi().noFollow();
      assertThat(calls.open(path, flags, 0644)).as(layer.name()).isEqualTo(-Errno.ENOENT);
      int fd = calls.open(path, flags | FileCalls.O_CREAT | FileCalls.O_EXCL, 0644);
      assertThat(fd).isNotNegative();
      assertThat(calls.open(path, flags | FileCalls.O_CREAT | FileCalls.O_EXCL, 0644))
          .isEqualTo(-Errno.EEXIST);
      byte[] text = "1234\nnow".getBytes(StandardCharsets.US_ASCII);
      assertThat(calls.pwrite(fd, text, text.length, 0)).isEqualTo(text.length);
      byte[] back = new byte[32];
      assertThat(calls.pread(fd, back, back.length, 0)).isEqualTo(text.length);
      assertThat(Arrays.copyOf(back, text.length)).isEqualTo(text);
      assertThat(calls.ftruncate(fd, 4)).isZero();
      assertThat(Files.readString(file)).isEqualTo("1234");
      assertThat(calls.fchmod(fd, 0606)).isZero(); // as given, whatever the umask
      assertThat(Files.getAttribute(file, "unix:mode")).isEqualTo(0100606);
      assertThat(calls.effectiveUid()).isEqualTo(Files.getAttribute(file, "unix:uid"));

      assertThat(calls.setLock(fd, FileCalls.F_OFD_SETLK, FileCalls.F_WRLCK)).isZero();
      int other = calls.open(path, flags, 0);
      assertThat(calls.setLock(other, FileCalls.F_OFD_SETLK, FileCalls.F_WRLCK))
          .isEqualTo(-Errno.EAGAIN);
      assertThat(calls.lockHolder(other, FileCalls.F_OFD_GETLK)).isZero(); // OFD: no pid
      assertThat(calls.setLock(fd, FileCalls.F_OFD_SETLK, FileCalls.F_UNLCK)).isZero();
      assertThat(calls.lockHolder(other, FileCalls.F_OFD_GETLK)).isZero();
      assertThat(calls.setLock(other, 12345, FileCalls.F_WRLCK)).isEqualTo(-Errno.EINVAL);

      byte[] statx = new byte[FileCalls.STATX_BYTES];
      assertThat(calls.statx(FileCalls.AT_FDCWD, path, 0, 0x1, statx)).isZero();
      assertThat(calls.statx(FileCalls.AT_FDCWD, NativeLayer.cString(tmp + "/no"), 0, 0x1, statx))
          .isEqualTo(-Errno.ENOENT);
      assertThat(calls.close(other)).isZero();
      assertThat(calls.close(fd)).isZero();
      assertThat(calls.close(fd)).isEqualTo(-9); // EBADF
      assertThat(calls.pread(fd, back, 1, 0)).isEqualTo(-9);
      assertThat(calls.fchmod(fd, 0666)).isEqualTo(-9);
    }
  }
}
