package io.tributary.cli;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Moves the process's standard error back onto file descriptor 2 from the descriptor the
 * {@code ./tributary} launcher kept it on, with {@code dup2} through java.lang.foreign.
 *
 * <p>Why: the launcher enables the Vector API ({@code --add-modules jdk.incubator.vector}), and the
 * JVM announces an incubator module on stderr while it boots. The launcher sends what the JVM
 * prints while booting through a filter that drops that one line; once {@code main} runs, this
 * class puts the real stderr back, so everything after it (progress, errors) is written directly,
 * in order, and is all out when the process exits. Loaded by {@link StandardError} on a 22+ JVM
 * only (compiled for 22 by the pom's java22 profile).
 */
final class NativeStderr {
  private NativeStderr() {}

  /**
   * Duplicates {@code fd} onto 2 and closes {@code fd}; returns whether dup2 succeeded. The caller
   * flushes what Java buffered for descriptor 2 first.
   */
  static boolean reclaim(int fd) {
    Linker linker = Linker.nativeLinker();
    MethodHandle dup2 = linker.downcallHandle(linker.defaultLookup().find("dup2").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    try {
      if ((int) dup2.invokeExact(fd, 2) != 2) {
        return false;
      }
      int closed = (int) close.invokeExact(fd);
      return closed == 0;
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      // invokeExact declares Throwable; a downcall to dup2 or close throws nothing checked.
      throw new IllegalStateException("dup2 failed", t);
    }
  }
}
