package dev.berth.runtime.exec;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The few glibc functions the native spawner calls, bound directly by JNA (no proxy per call). They
 * are bound once, when the class loads; {@link #BOUND} says whether every one was found: glibc 2.34
 * or later on Linux (x86-64 or aarch64, whose open flags and system call numbers are below), which
 * has {@code posix_spawn_file_actions_addclosefrom_np}. Elsewhere (macOS, musl, an older glibc)
 * nothing is bound and Berth starts processes with {@link ProcessBuilder}.
 */
final class LibC {

  /** {@code O_WRONLY | O_CREAT | O_APPEND} of the generic Linux ABI (x86-64 and aarch64 alike). */
  static final int O_APPEND_CREATE = 01 | 0100 | 02000;
  static final int O_RDONLY = 0;
  static final short POSIX_SPAWN_SETSIGMASK = 0x08;
  static final short POSIX_SPAWN_SETSID = 0x80;
  /** {@code pidfd_open(2)}, the same number on every Linux architecture Berth binds (Linux 5.3 and later). */
  static final long SYS_PIDFD_OPEN = 434;
  static final int EFD_CLOEXEC = 02000000;
  static final short POLLIN = 1;
  static final int EINTR = 4;
  static final int ENOEXEC = 8;
  static final int P_PID = 1;
  static final int PRIO_PROCESS = 0;
  static final int WEXITED = 4;
  static final int WNOWAIT = 0x01000000;
  /** Generous upper bounds of glibc's {@code posix_spawnattr_t} (336 bytes), {@code posix_spawn_file_actions_t} (80) and {@code sigset_t} (128). */
  static final int ATTR_BYTES = 1024;
  static final int FILE_ACTIONS_BYTES = 512;
  static final int SIGSET_BYTES = 256;
  /** {@code siginfo_t}, 128 bytes on Linux. */
  static final int SIGINFO_BYTES = 128;

  /** Whether every function below is bound. */
  static final boolean BOUND = bind();

  private LibC() {}

  private static boolean bind() {
    if (!Platform.isLinux() || !(Platform.ARCH.equals("x86-64") || Platform.ARCH.equals("aarch64"))) {
      return false;
    }
    try {
      JnaLibrary.prepare();
      Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
      return true;
    } catch (LinkageError | RuntimeException missing) {
      return false; // musl, an older glibc, or JNA's own library cannot load (a temporary folder mounted noexec)
    }
  }

  static native int posix_spawn(int[] pid, String path, Pointer fileActions, Pointer attr, Pointer argv, Pointer envp);

  static native int posix_spawn_file_actions_init(Pointer fileActions);

  static native int posix_spawn_file_actions_destroy(Pointer fileActions);

  static native int posix_spawn_file_actions_addopen(Pointer fileActions, int fd, String path, int oflag, int mode);

  static native int posix_spawn_file_actions_addchdir_np(Pointer fileActions, String path);

  static native int posix_spawn_file_actions_addclosefrom_np(Pointer fileActions, int from);

  static native int posix_spawnattr_init(Pointer attr);

  static native int posix_spawnattr_setflags(Pointer attr, short flags);

  static native int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);

  static native int sigemptyset(Pointer sigset);

  /** Only in glibc: binding it keeps a C library that merely shares the other names (musl) out. */
  static native Pointer gnu_get_libc_version();

  static native String strerror(int errno);

  static native int waitpid(int pid, int[] status, int options) throws LastErrorException;

  static native int waitid(int idType, int id, Pointer info, int options) throws LastErrorException;

  /** The variadic {@code syscall(2)} with two integer arguments, as {@code pidfd_open(pid, 0)} needs. */
  static native int syscall(long number, long pid, long flags) throws LastErrorException;

  static native int poll(Pointer fds, long count, int timeoutMillis) throws LastErrorException;

  static native int eventfd(int initial, int flags) throws LastErrorException;

  static native long write(int fd, long[] value, long bytes) throws LastErrorException;

  static native int close(int fd);

  /** {@code setpriority(2)}; on Linux, {@code who} 0 with {@link #PRIO_PROCESS} is the calling thread alone. */
  static native int setpriority(int which, int who, int prio) throws LastErrorException;
}
