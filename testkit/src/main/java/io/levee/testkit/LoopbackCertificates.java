package io.levee.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway certificate authority and a server certificate it signed for {@code 127.0.0.1} and
 * {@code localhost}, made at test time with {@code openssl} (PEM files, as a server such as
 * redis-server reads them), plus a PKCS12 truststore holding the authority, which this JVM uses
 * through {@link #socketFactory} and a forked JVM through {@link #jvmOptions}. Nothing here is a
 * secret: the keys live one test long in the folder given.
 */
public final class LoopbackCertificates {
  private static final String TRUSTSTORE_PASSWORD = "levee-test";

  private final Path dir;

  private LoopbackCertificates(Path dir) {
    this.dir = dir;
  }

  /** Makes the authority, the server's key and certificate and the truststore in {@code dir}. */
  public static LoopbackCertificates create(Path dir) throws IOException {
    return create(dir, "IP:127.0.0.1,DNS:localhost");
  }

  /**
   * The same with a server certificate for the names given ({@code subjectAltName}, as {@code
   * DNS:elsewhere.invalid}): one that does not name the host a client dials is one it must refuse.
   */
  public static LoopbackCertificates create(Path dir, String subjectAltNames) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("server.ext"), "subjectAltName=" + subjectAltNames + "\n");
    LoopbackCertificates certs = new LoopbackCertificates(dir);
    certs.openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=levee-test-ca",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt");
    certs.openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-keyout",
        "server.key",
        "-out",
        "server.csr");
    certs.openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "server.ext",
        "-out",
        "server.crt");
    certs.writeTruststore();
    return certs;
  }

  public Path caCertificate() {
    return dir.resolve("ca.crt");
  }

  public Path serverCertificate() {
    return dir.resolve("server.crt");
  }

  public Path serverKey() {
    return dir.resolve("server.key");
  }

  /** A PKCS12 file that trusts the authority, password {@link #truststorePassword}. */
  public Path truststore() {
    return dir.resolve("truststore.p12");
  }

  public String truststorePassword() {
    return TRUSTSTORE_PASSWORD;
  }

  /** The system properties that make a forked JVM's default SSL context trust the authority. */
  public List<String> jvmOptions() {
    return List.of(
        "-Djavax.net.ssl.trustStore=" + truststore(),
        "-Djavax.net.ssl.trustStorePassword=" + TRUSTSTORE_PASSWORD,
        "-Djavax.net.ssl.trustStoreType=PKCS12");
  }

  /**
   * Sockets that trust the authority only and check the host name against the certificate, as a
   * careful client would.
   */
  public SSLSocketFactory socketFactory() throws IOException {
    return socketFactory(true);
  }

  /**
   * Sockets that trust the authority only, checking the host name or not: a test's own client of a
   * server whose certificate names another host on purpose does not check it.
   */
  public SSLSocketFactory socketFactory(boolean checkHostName) throws IOException {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(truststore())) {
        store.load(in, TRUSTSTORE_PASSWORD.toCharArray());
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      SSLSocketFactory sockets = context.getSocketFactory();
      return checkHostName ? new HostCheckingFactory(sockets) : sockets;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + truststore(), e);
    }
  }

  private void writeTruststore() throws IOException {
    try (InputStream in = Files.newInputStream(caCertificate());
        OutputStream out = Files.newOutputStream(truststore())) {
      Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setCertificateEntry("levee-test-ca", ca);
      store.store(out, TRUSTSTORE_PASSWORD.toCharArray());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write " + truststore(), e);
    }
  }

  private void openssl(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    command.addAll(List.of(args));
    Path log = dir.resolve("openssl.log");
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new IOException("openssl is needed for the TLS tests: apt-get install openssl", e);
    }
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " took over 60 s");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command) + " failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
    }
  }

  /** Turns on host name checking, which a plain SSLSocket leaves off. */
  private static final class HostCheckingFactory extends SSLSocketFactory {
    private final SSLSocketFactory delegate;

    HostCheckingFactory(SSLSocketFactory delegate) {
      this.delegate = delegate;
    }

    private Socket checked(Socket socket) {
      SSLParameters params = ((SSLSocket) socket).getSSLParameters();
      params.setEndpointIdentificationAlgorithm("HTTPS");
      ((SSLSocket) socket).setSSLParameters(params);
      return socket;
    }

    @Override
    public Socket createSocket() throws IOException {
      return checked(delegate.createSocket());
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose)
        throws IOException {
      return checked(delegate.createSocket(s, host, port, autoClose));
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return checked(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress local, int localPort)
        throws IOException {
      return checked(delegate.createSocket(host, port, local, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return checked(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort)
        throws IOException {
      return checked(delegate.createSocket(address, port, local, localPort));
    }

    @Override
    public String[] getDefaultCipherSuites() {
      return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      return delegate.getSupportedCipherSuites();
    }
  }
}
