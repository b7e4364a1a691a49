package dev.berth.serve;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The event streams open now: how many each client may hold and all together, so that streams never
 * take the threads the other requests are answered on (each stream holds one while it is open), and
 * which are open, so that stopping the server ends them instead of waiting for clients.
 *
 * <p>A client that left is noticed only when its stream next writes; when the streams are all taken, a
 * new one first has the streams it would wait for write a comment at once, so that places of clients
 * that left (a page that was closed or reloaded) are given back to it.
 */
final class Streams {

  /** The most streams open at once, half the server's threads: the other half always answer. */
  static final int MOST = 32;
  /**
   * The most streams one client holds: a browser opens at most 6 connections to one server, so a
   * client over this is not a dashboard, and cannot take every stream from the others.
   */
  static final int MOST_PER_CLIENT = 16;
  /** How long a new stream waits for the places of clients that left to be given back. */
  private static final long RECLAIM_MILLIS = 500;
  private static final byte[] PROBE = ": anyone?\n\n".getBytes(StandardCharsets.UTF_8);

  /** One open stream's place: what it writes goes through it; closing it gives the place back. */
  final class Place implements AutoCloseable {

    private final String client;
    private final ReentrantLock writing = new ReentrantLock();
    private OutputStream out;
    private DirectoryWatch watch;
    private boolean closed;

    private Place(String client) {
      this.client = client;
    }

    /** The stream's output, and the watch its thread waits on (closed to end the stream). */
    void attach(OutputStream out, DirectoryWatch watch) {
      synchronized (Streams.this) {
        this.out = out;
        this.watch = watch;
      }
    }

    /** Writes {@code text} to the client and sends it. */
    void send(String text) throws IOException {
      writing.lock();
      try {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
      } finally {
        writing.unlock();
      }
    }

    /**
     * Writes a comment now, unless the stream is writing; a client that left fails it (at the second
     * write: the first one only makes its end answer with a reset), and its stream then ends.
     */
    private void probe() {
      OutputStream o;
      DirectoryWatch w;
      synchronized (Streams.this) {
        o = out;
        w = watch;
      }
      if (o == null || !writing.tryLock()) {
        return;
      }
      try {
        o.write(PROBE);
        o.flush();
        o.write(PROBE);
        o.flush();
      } catch (IOException e) {
        end(w);
      } finally {
        writing.unlock();
      }
    }

    @Override
    public void close() {
      synchronized (Streams.this) {
        if (!closed) {
          closed = true;
          open.remove(this);
          Streams.this.notifyAll();
        }
      }
    }
  }

  private final List<Place> open = new ArrayList<>();

  /**
   * A place for a stream of {@code client}, held until it is closed; empty when that client, or all of
   * them together, hold as many as they may, also after the streams in the way were asked whether
   * their clients are still there.
   */
  Optional<Place> admit(String client) throws InterruptedException {
    List<Place> inTheWay;
    synchronized (this) {
      if (room(client)) {
        return Optional.of(take(client));
      }
      inTheWay = open.stream().filter(p -> open.size() >= MOST || p.client.equals(client)).toList();
    }
    inTheWay.forEach(Place::probe);
    synchronized (this) {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECLAIM_MILLIS);
      while (!room(client)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return Optional.of(take(client));
    }
  }

  private boolean room(String client) {
    return open.size() < MOST && open.stream().filter(p -> p.client.equals(client)).count() < MOST_PER_CLIENT;
  }

  private Place take(String client) {
    Place place = new Place(client);
    open.add(place);
    return place;
  }

  /** Ends every open stream: each one's wait fails and its request completes. */
  void closeAll() {
    List<DirectoryWatch> watches;
    synchronized (this) {
      watches = open.stream().map(p -> p.watch).filter(w -> w != null).toList();
    }
    watches.forEach(Streams::end);
  }

  private static void end(DirectoryWatch watch) {
    if (watch == null) {
      return;
    }
    try {
      watch.close();
    } catch (IOException e) {
      // already closed; its stream ends either way
    }
  }
}
