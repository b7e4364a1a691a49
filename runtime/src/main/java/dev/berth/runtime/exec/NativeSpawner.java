package dev.berth.runtime.exec;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import dev.berth.runtime.contain.Container;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Starts task processes with glibc's {@code posix_spawn}, one {@code exec} per task: the task leads
 * its own session ({@code POSIX_SPAWN_SETSID}, no {@code setsid} program), its signal mask is empty
 * as the JDK's children's is (signals Berth ignores stay ignored, as there), and file actions give
 * it {@code /dev/null} as input, its output and error files opened for appending (created as
 * {@link ProcessBuilder} creates them, mode 0666 less the umask), its working directory, and no
 * other descriptor of Berth's ({@code closefrom(3)}). A container that can take the spawning thread
 * in ({@link Container#enter()}) holds the task from its start without a joining command.
 *
 * <p>Exits are seen by the thread that waits for each process: it waits on a {@code pidfd} and on
 * this spawner's wake-up {@code eventfd}, so {@link #close()} ends the wait, then reaps the process
 * itself with {@code waitpid} for that one pid (the JDK's reaper reaps only what it started).
 */
final class NativeSpawner implements Spawner {

  private static final boolean PIDFD = LibC.BOUND && pidfdWorks();

  private final Memory attr;
  private final int wakeFd;
  private int waiters;
  private boolean closed;
  private boolean wakeClosed;

  private NativeSpawner(Memory attr, int wakeFd) {
    this.attr = attr;
    this.wakeFd = wakeFd;
  }

  /** Whether this machine has what the native spawner needs. */
  static boolean supported() {
    return PIDFD;
  }

  /** The native spawner, where the C library and the kernel (pidfds, Linux 5.3) have what it needs. */
  static Optional<Spawner> available() {
    if (!PIDFD) {
      return Optional.empty();
    }
    Memory attr = new Memory(LibC.ATTR_BYTES);
    try (Memory empty = new Memory(LibC.SIGSET_BYTES)) {
      int wake = LibC.eventfd(0, LibC.EFD_CLOEXEC);
      if (LibC.posix_spawnattr_init(attr) != 0 || LibC.sigemptyset(empty) != 0
          || LibC.posix_spawnattr_setsigmask(attr, empty) != 0
          || LibC.posix_spawnattr_setflags(attr, (short) (LibC.POSIX_SPAWN_SETSID | LibC.POSIX_SPAWN_SETSIGMASK)) != 0) {
        LibC.close(wake);
        return Optional.empty();
      }
      return Optional.of(new NativeSpawner(attr, wake));
    } catch (LastErrorException e) {
      return Optional.empty();
    }
  }

  private static boolean pidfdWorks() {
    try {
      return LibC.close(LibC.syscall(LibC.SYS_PIDFD_OPEN, ProcessHandle.current().pid(), 0)) == 0;
    } catch (LastErrorException | UnsatisfiedLinkError e) {
      return false; // a kernel before 5.3, or a seccomp filter that refuses it
    }
  }

  @Override
  public String describe() {
    return "posix_spawn";
  }

  @Override
  public Spawned spawn(LaunchRequest request, Supervision.Start start, Container container, Set<String> withheld)
      throws IOException {
    Map<String, String> env = Spawner.environment(request, container, withheld);
    List<String> envp = new ArrayList<>(env.size());
    for (Map.Entry<String, String> e : env.entrySet()) {
      envp.add(e.getKey() + "=" + e.getValue());
    }
    int[] pid = new int[1];
    try (Memory actions = new Memory(LibC.FILE_ACTIONS_BYTES); Memory vars = NativeStrings.of(envp)) {
      check(LibC.posix_spawn_file_actions_init(actions), "file actions");
      try {
        check(LibC.posix_spawn_file_actions_addopen(actions, 0, "/dev/null", LibC.O_RDONLY, 0), "/dev/null");
        String out = request.stdout().toAbsolutePath().toString();
        String err = request.stderr().toAbsolutePath().toString();
        check(LibC.posix_spawn_file_actions_addopen(actions, 1, out, LibC.O_APPEND_CREATE, 0666), out);
        check(LibC.posix_spawn_file_actions_addopen(actions, 2, err, LibC.O_APPEND_CREATE, 0666), err);
        String workdir = request.workdir().toAbsolutePath().toString();
        check(LibC.posix_spawn_file_actions_addchdir_np(actions, workdir), workdir);
        check(LibC.posix_spawn_file_actions_addclosefrom_np(actions, 3), "closefrom");
        Optional<Container.Entered> entered = container.enter();
        try {
          // A thread inside the container starts the task inside; otherwise the task's command joins it.
          List<String> argv = entered.isPresent() ? start.argv() : container.command(start.argv());
          String path = argv.equals(start.argv()) ? start.program().toString() : argv.get(0);
          int errno = spawn(pid, path, argv, actions, vars);
          if (errno == LibC.ENOEXEC) {
            // A script without a #! line: run by the shell, as execvp (and so ProcessBuilder through setsid) runs it.
            List<String> withShell = new ArrayList<>(argv.size() + 1);
            withShell.add("/bin/sh");
            withShell.add(path);
            withShell.addAll(argv.subList(1, argv.size()));
            errno = spawn(pid, "/bin/sh", withShell, actions, vars);
          }
          check(errno, path);
        } finally {
          entered.ifPresent(Container.Entered::close);
        }
      } finally {
        LibC.posix_spawn_file_actions_destroy(actions);
      }
    }
    return new NativeSpawned(pid[0]);
  }

  private int spawn(int[] pid, String path, List<String> argv, Memory actions, Memory vars) {
    try (Memory args = NativeStrings.of(argv)) {
      return LibC.posix_spawn(pid, path, actions, attr, args, vars);
    }
  }

  /** A failed step of a start as the JDK words one: {@code error=2, No such file or directory}. */
  private static void check(int errno, String what) throws IOException {
    if (errno != 0) {
      throw new IOException("error=" + errno + ", " + LibC.strerror(errno) + " (" + what + ")");
    }
  }

  /** Ends every wait, now and later, and releases the wake-up descriptor once no thread polls it. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      LibC.write(wakeFd, new long[] {1}, 8);
    } catch (LastErrorException e) {
      // an eventfd takes a write unless its counter would overflow, which one write per close cannot
    }
    releaseWakeIfIdle();
  }

  private synchronized boolean enterWait() {
    if (closed) {
      return false;
    }
    waiters++;
    return true;
  }

  private synchronized void leaveWait() {
    waiters--;
    releaseWakeIfIdle();
  }

  private void releaseWakeIfIdle() {
    if (closed && waiters == 0 && !wakeClosed) {
      wakeClosed = true;
      LibC.close(wakeFd);
    }
  }

  /** A process this spawner started; reaped by the thread that waits for it. */
  private final class NativeSpawned implements Spawned {

    private final int pid;
    private volatile boolean exited;

    NativeSpawned(int pid) {
      this.pid = pid;
    }

    @Override
    public long pid() {
      return pid;
    }

    @Override
    public boolean isAlive() {
      return !exited;
    }

    /** Under the lock that reaping takes, so a handle is never taken of a pid the kernel may give to another process. */
    @Override
    public synchronized Optional<ProcessHandle> handle() {
      return exited ? Optional.empty() : ProcessHandle.of(pid);
    }

    @Override
    public int waitFor() throws InterruptedException {
      if (!enterWait()) {
        reapLater();
        throw new InterruptedException("the executor is closed");
      }
      boolean ended;
      try {
        ended = awaitEnd(true);
      } finally {
        leaveWait();
      }
      if (!ended) {
        reapLater();
        throw new InterruptedException("the executor is closed");
      }
      return reap();
    }

    /**
     * Waits until the process has ended (true), without reaping it, or, when {@code wakeable}, until
     * the spawner is closed (false).
     */
    private boolean awaitEnd(boolean wakeable) {
      int pidfd;
      try {
        pidfd = LibC.syscall(LibC.SYS_PIDFD_OPEN, pid, 0);
      } catch (LastErrorException e) {
        return awaitEndUnwakeable(); // no descriptor to spare
      }
      try (Memory fds = new Memory(16)) {
        fds.clear();
        fds.setInt(0, pidfd);
        fds.setShort(4, LibC.POLLIN);
        fds.setInt(8, wakeFd);
        fds.setShort(12, LibC.POLLIN);
        while (true) {
          try {
            LibC.poll(fds, wakeable ? 2 : 1, -1);
            break;
          } catch (LastErrorException e) {
            if (e.getErrorCode() != LibC.EINTR) {
              return awaitEndUnwakeable();
            }
          }
        }
        return fds.getShort(6) != 0 || fds.getShort(14) == 0;
      } finally {
        LibC.close(pidfd);
      }
    }

    /** Waits in {@code waitid} for the end without reaping ({@code WNOWAIT}): nothing wakes this wait early. */
    private boolean awaitEndUnwakeable() {
      try (Memory info = new Memory(LibC.SIGINFO_BYTES)) {
        while (true) {
          try {
            LibC.waitid(LibC.P_PID, pid, info, LibC.WEXITED | LibC.WNOWAIT);
            return true;
          } catch (LastErrorException e) {
            if (e.getErrorCode() != LibC.EINTR) {
              return true; // not ours to wait for after all: reap() says so
            }
          }
        }
      }
    }

    /**
     * Reaps the ended process and returns its exit code. Under the lock {@link #handle()} takes, so
     * no handle is taken of its pid once the kernel may give it to another process.
     */
    private synchronized int reap() {
      int[] status = new int[1];
      while (true) {
        try {
          LibC.waitpid(pid, status, 0);
          break;
        } catch (LastErrorException e) {
          if (e.getErrorCode() != LibC.EINTR) {
            break; // ECHILD: already reaped; nothing better to report than the status as read
          }
        }
      }
      exited = true;
      int signal = status[0] & 0x7f;
      return signal == 0 ? (status[0] >> 8) & 0xff : 0x80 + signal;
    }

    @Override
    public void release() {
      reapLater();
    }

    /** After close, a thread of its own reaps the process when it ends, so it leaves no zombie. */
    private void reapLater() {
      Thread reaper = new Thread(() -> {
        awaitEnd(false);
        reap();
      }, "berth-reap-" + pid);
      reaper.setDaemon(true);
      reaper.start();
    }
  }
}
