package cp.worker;

import com.uber.m3.tally.Scope;
import cp.model.RootCause;
import cp.observability.Telemetry;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.CountWorkflowExecutionsRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.converter.DataConverter;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.FileInputStream;
import java.io.InputStream;
import java.time.Duration;

/**
 * A connection to Temporal: the embedded in-process service when {@code TEMPORAL_ADDRESS} is
 * unset, otherwise a real server (or {@code cpctl dev-server}) with optional TLS and API key.
 *
 * <p>{@link #isTestServer()} tells whether the service is the SDK's test server (embedded or
 * dev-server): it has no visibility store and never times out sticky queues, so workers turn
 * sticky execution off (except the sole worker of an in-process service) and listings fall back
 * to the ledger.
 *
 * <p>The client uses {@link TemporalOptions#dataConverter(PlaneConfig)}: with
 * {@code CP_PAYLOAD_KEY} set, everything it sends is encrypted and everything it reads decrypted,
 * and workers built on it do the same.
 */
public final class TemporalConnection implements AutoCloseable {
  /** How long to wait for the first answer from a configured server before giving up. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final EmbeddedTemporal embedded;
  private final WorkflowServiceStubs service;
  private final OperatorServiceStubs operator;
  private final WorkflowClient client;
  private final String namespace;
  private final String target;
  private final boolean testServer;
  private final Telemetry telemetry;
  private final Scope metricsScope;

  private TemporalConnection(EmbeddedTemporal embedded, WorkflowServiceStubs service, OperatorServiceStubs operator,
      String namespace, String target, DataConverter converter, Telemetry telemetry, Scope metricsScope) {
    this.embedded = embedded;
    this.service = service;
    this.operator = operator;
    this.namespace = namespace;
    this.target = target;
    this.telemetry = telemetry;
    this.metricsScope = metricsScope;
    this.client = WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder().setNamespace(namespace)
        .setDataConverter(converter).setInterceptors(TemporalTelemetry.clientInterceptors(telemetry)).build());
    this.testServer = embedded != null || probeTestServer();
  }

  /** Connects without telemetry ({@link Telemetry#NOOP}). */
  public static TemporalConnection open(PlaneConfig config) {
    return open(config, Telemetry.NOOP);
  }

  /**
   * Connects with {@code telemetry}: its tracing interceptor on the client (and on the workers built
   * on this connection), its registry behind the SDK's metrics.
   */
  public static TemporalConnection open(PlaneConfig config, Telemetry telemetry) {
    Scope scope = TemporalTelemetry.metricsScope(telemetry);
    if (config.embedded()) {
      EmbeddedTemporal e = EmbeddedTemporal.inProcess(scope);
      return new TemporalConnection(e, e.service(), e.operator(), config.namespace(), e.target(),
          TemporalOptions.dataConverter(config), telemetry, scope);
    }
    WorkflowServiceStubsOptions.Builder b = WorkflowServiceStubsOptions.newBuilder().setTarget(config.temporalAddress())
        .setRpcTimeout(CONNECT_TIMEOUT);
    if (scope != null) {
      b.setMetricsScope(scope);
    }
    OperatorServiceStubsOptions.Builder ob = OperatorServiceStubsOptions.newBuilder().setTarget(config.temporalAddress());
    if (config.tls().enabled()) {
      try {
        var ssl = config.tls().cert() != null
            ? SimpleSslContextBuilder.forPKCS8(open(config.tls().cert()), open(config.tls().key()))
            : SimpleSslContextBuilder.noKeyOrCertChain();
        if (config.tls().ca() != null) {
          ssl.setTrustManager(trustManager(config.tls().ca()));
        }
        var ctx = ssl.build();
        b.setSslContext(ctx);
        ob.setSslContext(ctx);
      } catch (Exception e) {
        throw new ConfigException("TEMPORAL_TLS_CERT", "cannot build TLS from TEMPORAL_TLS_CERT/KEY/CA: "
            + e.getMessage());
      }
    }
    if (config.temporalApiKey().isPresent()) {
      String key = config.temporalApiKey().reveal();
      b.addApiKey(() -> key);
      ob.addApiKey(() -> key);
    }
    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(b.build());
    try {
      service.healthCheck();
    } catch (RuntimeException e) {
      service.shutdownNow();
      throw new ConfigException("TEMPORAL_ADDRESS", "cannot reach Temporal at TEMPORAL_ADDRESS="
          + config.temporalAddress() + ": " + RootCause.innermostMessage(e)
          + " (start one with 'cpctl dev-server', or unset TEMPORAL_ADDRESS for the embedded service)");
    }
    OperatorServiceStubs operator = OperatorServiceStubs.newServiceStubs(ob.validateAndBuildWithDefaults());
    return new TemporalConnection(null, service, operator, config.namespace(), config.temporalAddress(),
        TemporalOptions.dataConverter(config), telemetry, scope);
  }

  private static InputStream open(java.nio.file.Path p) throws java.io.IOException {
    return new FileInputStream(p.toFile());
  }

  /** A trust manager that trusts exactly the certificates in the PEM file {@code ca}. */
  private static javax.net.ssl.X509TrustManager trustManager(java.nio.file.Path ca) throws Exception {
    var store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = open(ca)) {
      int i = 0;
      for (var cert : java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
    }
    var tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    for (var tm : tmf.getTrustManagers()) {
      if (tm instanceof javax.net.ssl.X509TrustManager x) {
        return x;
      }
    }
    throw new IllegalStateException("no X.509 trust manager for " + ca);
  }

  private boolean probeTestServer() {
    try {
      service.blockingStub().countWorkflowExecutions(CountWorkflowExecutionsRequest.newBuilder()
          .setNamespace(namespace).setQuery("").build());
      return false;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode() == Status.Code.UNIMPLEMENTED;
    }
  }

  public WorkflowClient client() {
    return client;
  }

  public WorkflowServiceStubs service() {
    return service;
  }

  public OperatorServiceStubs operator() {
    return operator;
  }

  public String namespace() {
    return namespace;
  }

  public String target() {
    return target;
  }

  public boolean isEmbedded() {
    return embedded != null;
  }

  /** True for the SDK's test server (embedded or dev-server): no visibility, no sticky timeouts. */
  public boolean isTestServer() {
    return testServer;
  }

  /** Registers CpSessionId, CpAgentClass and CpTurn if the server lacks them. */
  public void ensureSearchAttributes() {
    SearchAttributeRegistrar.ensure(operator, namespace);
  }

  /** The telemetry this connection was opened with (its workers use the same). */
  public Telemetry telemetry() {
    return telemetry;
  }

  @Override
  public void close() {
    if (embedded != null) {
      embedded.close();
    } else {
      operator.shutdownNow();
      service.shutdownNow();
    }
    if (metricsScope != null) {
      try {
        metricsScope.close();
      } catch (com.uber.m3.tally.ScopeCloseException e) {
        // Only the last report of the SDK's metrics is lost; the process is closing the connection.
      }
    }
  }
}
