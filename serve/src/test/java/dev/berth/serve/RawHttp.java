package dev.berth.serve;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 written by hand on a socket, for what {@link java.net.http.HttpClient} will not send (a
 * {@code Host} of our choosing, a connection from another loopback address) or will not leave open.
 */
final class RawHttp implements AutoCloseable {

  private final Socket socket;

  private RawHttp(Socket socket) {
    this.socket = socket;
  }

  /** A connection to the server at {@code server}, from the loopback address {@code from}. */
  static RawHttp connect(URI server, String from) throws IOException {
    Socket s = new Socket(InetAddress.getByName(server.getHost()), server.getPort(), InetAddress.getByName(from), 0);
    s.setSoTimeout(10_000);
    return new RawHttp(s);
  }

  /** Sends a GET of {@code path} with these header lines ({@code "Name: value"}). */
  RawHttp get(String path, String... headers) throws IOException {
    return send("GET", path, headers);
  }

  /** Sends the head of a request with these header lines ({@code "Name: value"}); the body is up to the caller. */
  RawHttp send(String method, String path, String... headers) throws IOException {
    StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
    for (String h : headers) {
      head.append(h).append("\r\n");
    }
    return write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
  }

  /** Sends these bytes as they are, part of a body. */
  RawHttp write(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
    return this;
  }

  /** The status code of the answer, read from its first line. */
  int status() throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("the server closed the connection: " + line);
      }
      line.write(b);
    }
    String status = line.toString(StandardCharsets.US_ASCII);
    return Integer.parseInt(status.split(" ")[1]);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
