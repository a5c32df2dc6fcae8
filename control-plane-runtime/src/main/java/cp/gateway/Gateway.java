package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerException;
import cp.ledger.LedgerProblem;
import cp.ledger.LedgerUnreachableException;
import cp.model.RootCause;
import cp.model.ContentBlock;
import cp.model.FailureCode;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RefusalKind;
import cp.model.RouteOutcome;
import cp.observability.Telemetry;
import io.opentelemetry.api.trace.Span;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one door to every LLM: {@code route()} validates, checks the budget and the circuit
 * breaker, sends, records one EXCHANGE per round trip in the HOT ledger and validates the
 * output against the contract.
 *
 * <p>Temporal owns retries. The gateway never retries a call; a failure is recorded and thrown
 * as a {@link GatewayException} that says whether and when to retry. A request the gateway
 * refuses before sending (bad request, budget) becomes a PROMPT_REJECTED record and a
 * {@link RouteOutcome#REJECTED} response. A request carrying the Temporal identity of an
 * activity that already completed its exchange is answered from the ledger, so a worker that
 * dies after the provider answered does not make the next attempt pay twice.
 *
 * <p>A ledger whose database cannot be reached fails the call with {@code ledger_unavailable}
 * (retryable) before anything is sent. When it goes away while the provider is answering, the
 * paid answer is kept in the {@link ExchangeSpool} and the attempt fails the same way; the retry
 * records the kept answer and returns it without asking the provider again, and any answer kept
 * by a call that gave up is recorded by the next round trip that finds the ledger reachable.
 */
public final class Gateway {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
  /** Error code of a request refused because the budget cannot pay for it. */
  public static final String BUDGET_EXHAUSTED = FailureCode.BUDGET_EXHAUSTED.wire();
  public static final String INVALID_REQUEST = FailureCode.INVALID_REQUEST.wire();
  public static final String CIRCUIT_OPEN = FailureCode.CIRCUIT_OPEN.wire();
  /** Error code of a call refused because the HOT ledger cannot record it (see {@link LedgerProblem}). */
  public static final String LEDGER_UNWRITABLE = FailureCode.LEDGER_UNWRITABLE.wire();
  /** Error code of a call refused because the HOT ledger's disk is full: retried, with backoff. */
  public static final String LEDGER_FULL = FailureCode.LEDGER_FULL.wire();
  /** Highest temperature any provider accepts. */
  static final double MAX_TEMPERATURE = 2.0;

  private final Map<String, LlmProvider> providers;
  private final LedgerStream hot;
  private final GatewayConfig config;
  private final OutputValidator validator;
  private final Function<String, CircuitBreaker> breakerFactory;
  private final Clock clock;
  /** Paid answers the HOT ledger could not take yet, and their recording. */
  private final KeptAnswers kept;
  private final ExchangeCost costs;
  private final TenantGuard tenants;
  private final Telemetry telemetry;
  private final Map<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();
  private final FallbackHops hops;
  private final AttemptsInFlight attempts = new AttemptsInFlight();
  private final DuplicateAnswers answers;

  /** A gateway that reports no spans or metrics ({@link Telemetry#NOOP}). */
  public Gateway(List<LlmProvider> providers, LedgerStream hot, GatewayConfig config, OutputValidator validator,
      Function<String, CircuitBreaker> breakerFactory, Clock clock, ExchangeSpool spool) {
    this(providers, hot, config, validator, breakerFactory, clock, spool, Telemetry.NOOP);
  }

  /**
   * {@code spool}: where a paid answer waits while the HOT ledger's database is unreachable;
   * {@code telemetry}: where the chat spans and LLM metrics go.
   */
  public Gateway(List<LlmProvider> providers, LedgerStream hot, GatewayConfig config, OutputValidator validator,
      Function<String, CircuitBreaker> breakerFactory, Clock clock, ExchangeSpool spool, Telemetry telemetry) {
    this(providers, hot, config, validator, breakerFactory, clock, spool, telemetry, TenantGuard.NONE);
  }

  /** As above; {@code tenants}: the tenants' caps and their shared counters (issue 23). */
  public Gateway(List<LlmProvider> providers, LedgerStream hot, GatewayConfig config, OutputValidator validator,
      Function<String, CircuitBreaker> breakerFactory, Clock clock, ExchangeSpool spool, Telemetry telemetry,
      TenantGuard tenants) {
    this.tenants = Objects.requireNonNull(tenants, "tenants");
    this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    Map<String, LlmProvider> byId = new ConcurrentHashMap<>();
    for (LlmProvider p : providers) {
      byId.put(p.id(), p);
    }
    if (!byId.containsKey(config.defaultProvider())) {
      throw new IllegalArgumentException("default provider '" + config.defaultProvider()
          + "' is not among the configured providers " + byId.keySet());
    }
    this.providers = Map.copyOf(byId);
    this.hot = Objects.requireNonNull(hot, "hot ledger");
    this.config = config;
    this.validator = validator;
    this.breakerFactory = breakerFactory;
    this.clock = clock;
    this.kept = new KeptAnswers(this.hot, Objects.requireNonNull(spool, "spool"));
    this.answers = new DuplicateAnswers(this.hot, kept);
    this.costs = new ExchangeCost(config.prices());
    this.hops = new FallbackHops(hot, config, this::providerOf, this::modelOf,
        r -> DollarReservation.shortfall(r, modelOf(r), costs.pricing(providerOf(r), modelOf(r))));
  }

  /**
   * The price of {@code model} on {@code providerId} (null: the default provider), as the gateway
   * prices its calls (issue 23); empty when the model has no price.
   */
  public Optional<Pricing> pricing(String providerId, String model) {
    String provider = providerId != null ? providerId : config.defaultProvider();
    LlmProvider p = providers.get(provider);
    // A call that names no model goes to its provider's default, as route prices it.
    String m = model != null ? model : p != null ? p.defaultModel().orElse(null) : null;
    return costs.pricing(provider, m);
  }

  public CircuitBreaker breaker(String providerId) {
    return breakers.computeIfAbsent(providerId, id -> {
      CircuitBreaker b = breakerFactory.apply(id);
      telemetry.metrics().breaker(id, () -> b.state().gaugeCode());
      return b;
    });
  }

  /**
   * One governed round trip. Nothing is sent when the HOT ledger cannot take the EXCHANGE that
   * would record it (a broken chain, a full disk, a file that refuses writes): that is a
   * {@link GatewayException} with {@link #LEDGER_UNWRITABLE} (no retry can help) or
   * {@link #LEDGER_FULL} (retryable) whose message names the ledger and what to do.
   */
  public PromptResponse route(PromptRequest request) {
    return route(request, null);
  }

  /**
   * The same round trip, streamed (issue 24): the provider hands the reply's text to
   * {@code stream} as it arrives ({@code null}: a one-shot call). Nothing else changes: the
   * EXCHANGE records the assembled reply, and a call answered from the ledger or refused streams
   * nothing (the caller has the response's text).
   */
  public PromptResponse route(PromptRequest request, StreamSink stream) {
    try {
      PromptRequest current = request;
      PromptRequest failed = null; // the model whose failure sent the call on along its chain, once one failed
      GatewayException failure = null;
      List<String> skipped = new ArrayList<>(); // fallbacks passed over for budget, for the failure's message
      while (true) {
        try {
          PromptResponse r = routeRecorded(current, stream);
          if (failure == null || r.outcome() != RouteOutcome.REJECTED || !BUDGET_EXHAUSTED.equals(r.errorCode())) {
            return r;
          }
          // Issue 23: a fallback a budget refused when sent (a tenant's cap) is passed over, as one the work
          // order's dollars cannot pay for: the call fails as its own model did and is retried on it.
          skipped.add(hops.skipNote(current, r.errorMessage()));
        } catch (GatewayException e) {
          failed = current;
          failure = e;
          if (stream != null) {
            stream.restart(); // the failed model may have streamed part of a reply: the next one starts over
          }
        }
        current = hops.next(current, failed, failure, skipped);
      }
    } catch (LedgerException e) {
      Optional<LedgerUnreachableException> down = RootCause.first(e, LedgerUnreachableException.class);
      if (down.isPresent()) {
        throw new GatewayException(FailureCode.LEDGER_UNAVAILABLE, null, null, LedgerOutage.message(down.get()));
      }
      LedgerProblem p = LedgerProblem.of(e).orElseThrow(() -> e);
      throw new GatewayException(p.failureCode(), null, null, p.message());
    }
  }

  private String providerOf(PromptRequest r) {
    return r.provider() != null ? r.provider() : config.defaultProvider();
  }

  /** The model a request is sent to: its own, else its provider's default ("" when unknown). */
  private String modelOf(PromptRequest r) {
    LlmProvider p = providers.get(providerOf(r));
    return r.model() != null ? r.model() : p != null ? p.defaultModel().orElse("") : "";
  }

  private PromptResponse routeRecorded(PromptRequest request, StreamSink stream) {
    long start = clock.millis();
    String providerId = request.provider() != null ? request.provider() : config.defaultProvider();

    Optional<String> invalid = RequestChecks.problems(request, providerId, providers.keySet());
    if (invalid.isPresent()) {
      return reject(request, INVALID_REQUEST, invalid.get(), providerId, start, null);
    }

    PromptRequest sized = request;
    if (request.tokenBudgetRemaining() != null) {
      // Issue 20: a call reserves what it may cost, the prompt's estimate plus all of max_tokens,
      // before it is sent; one that does not fit is not sent (before, max_tokens was cut to what was
      // left, and a prompt the estimate under-counted took a session 5.1 % past its cap).
      long remaining = request.tokenBudgetRemaining();
      long estimate = TokenEstimate.ofPrompt(request);
      long reservation = estimate + Math.max(0, request.maxTokens());
      if (remaining <= 0 || reservation > remaining) {
        return reject(request, BUDGET_EXHAUSTED, "the budget has " + Math.max(0, remaining) + " tokens left and this"
            + " call reserves about " + reservation + " (prompt about " + estimate + " + max_tokens "
            + request.maxTokens() + "); it was not sent", providerId, start, RefusalKind.TOKENS);
      }
    }

    String model = modelOf(sized);
    Optional<String> noDollars = DollarReservation.shortfall(request, model, costs.pricing(providerId, model));
    if (noDollars.isPresent()) {
      return reject(request, BUDGET_EXHAUSTED, noDollars.get(), providerId, start,
          DollarReservation.kind(request, costs.pricing(providerId, model)));
    }

    String key = ExchangeRecords.successKey(request);
    try (AttemptsInFlight.Turn turn = attempts.take(key)) { // an earlier attempt still in flight here ends first
      return sendOnce(request, stream, sized, providerId, model, key, start);
    }
  }

  /** The round trip of {@link #routeRecorded} once the budgets allow it: answered from the ledger, or sent. */
  private PromptResponse sendOnce(PromptRequest request, StreamSink stream, PromptRequest sized, String providerId,
      String model, String key, long start) {
    if (key != null) {
      Optional<DuplicateAnswers.Recorded> keptAnswer = kept.recordKept(key);
      if (keptAnswer.isPresent()) {
        LOG.info("the answer to {} kept while the ledger was unreachable is recorded now as {}; the provider is not"
            + " asked again", request.activityId(), keptAnswer.get().entryId());
        return answers.respond(keptAnswer.get(), request.tokenBudgetRemaining());
      }
      Optional<String> done = hot.idForKey(key);
      if (done.isPresent()) {
        LOG.info("exchange for {} already recorded as {}; replaying it instead of calling the provider again",
            request.activityId(), done.get());
        return ExchangeRecords.replay(hot.byId(done.get()).orElseThrow(), request.tokenBudgetRemaining());
      }
    }

    // An attempt of this call whose EXCHANGE tore was answered and billed: it counts with this one (issue 20).
    ExchangeRecords.TornAttempt torn = ExchangeRecords.TornAttempt.of(key == null ? Optional.empty()
        : hot.tornAttempt(key));

    Optional<LedgerProblem> unrecordable = hot.appendProblem();
    if (unrecordable.isPresent()) {
      LedgerProblem p = unrecordable.get();
      throw new GatewayException(p.failureCode(), null, null, p.message()
          + "; nothing was sent to provider " + providerId);
    }
    kept.recordPending();

    String tenant = cp.model.TenantId.orDefault(sized.tenant());
    tenants.watch(tenant, (period, left) -> telemetry.metrics().tenantBudgetRemaining(tenant, period, left));
    // Each attempt holds its own: an attempt on another worker may be billed as well (DuplicateAnswers).
    TenantGuard.Outcome reserved = tenants.reserve(sized, ExchangeRecords.reservationKey(sized), model,
        costs.pricing(providerId, model));
    if (reserved.refusal() != null) {
      return reject(request, BUDGET_EXHAUSTED, reserved.refusal(), providerId, start, reserved.kind());
    }
    TenantGuard.Held held = reserved.held();
    // Issue 23: a breaker per endpoint and model, so one overloaded model leaves its fallback's door open.
    boolean ownModel = !model.isEmpty() && !model.equals(providers.get(providerId).defaultModel().orElse(model));
    CircuitBreaker breaker = breaker(ownModel ? providerId + "/" + model : providerId);
    if (!breaker.tryAcquire()) {
      held.release();
      Duration cooldown = breaker.remainingCooldown();
      String msg = "provider " + providerId + " is failing; its circuit breaker is open for another "
          + cooldown.toMillis() + " ms";
      String id = hot.write(ExchangeRecords.rejected(request, CIRCUIT_OPEN, msg));
      throw new GatewayException(FailureCode.CIRCUIT_OPEN, cooldown, id, msg);
    }

    LlmProvider provider = providers.get(providerId);
    ObjectNode prompt = ExchangeRecords.prompt(sized);
    String contextHash = ExchangeRecords.contextHash(prompt);
    Span span = ChatSpan.start(telemetry, sized, providerId, model, provider);
    long startNanos = System.nanoTime();
    ProviderReply reply;
    try {
      reply = stream == null ? provider.send(sized) : provider.stream(sized, stream);
    } catch (ProviderException e) {
      // A reply over the size limit was generated and billed, though not read: it is charged what it reserved.
      Optional<UnreadReply> unread = UnreadReply.of(e, sized, costs.pricing(providerId, model));
      double charged = unread.flatMap(UnreadReply::costUsd).orElse(0.0);
      if (unread.isPresent()) {
        held.settle(charged);
      } else {
        held.release();
      }
      if (e.kind().countsAgainstHealth()) {
        breaker.onFailure();
      } else {
        // The provider answered, on the request's merits, so it is up. Reporting no outcome
        // would leave a half-open circuit waiting for this trial forever.
        breaker.onSuccess();
      }
      long latency = clock.millis() - start;
      FailureCode code = e.kind().code();
      try {
        String id = hot.write(ExchangeRecords.error(sized, prompt, contextHash, providerId, model, code.wire(),
            e.getMessage(), e.httpStatus(), e.kind() == ProviderErrorKind.TIMEOUT, latency, e.retryAfter().orElse(null),
            unread));
        ChatSpan.failed(span, hot, id, code.wire());
        throw new GatewayException(code, e.retryAfter().orElse(null), id, e.getMessage(), e.attemptLimit());
      } finally {
        span.end();
        telemetry.metrics().llmRound(providerId, model, code.wire(), System.nanoTime() - startNanos,
            unread.map(UnreadReply::inputTokens).orElse(0L), unread.map(UnreadReply::outputTokens).orElse(0L), charged);
        if (unread.isPresent()) {
          telemetry.metrics().spend(cp.model.TenantId.orDefault(sized.tenant()), sized.agentClass(), model, charged);
        }
      }
    } catch (RuntimeException e) {
      held.release();
      breaker.onFailure();
      long latency = clock.millis() - start;
      String msg = "provider " + providerId + " failed unexpectedly: " + e.getClass().getSimpleName();
      try {
        String id = hot.write(ExchangeRecords.error(sized, prompt, contextHash, providerId, model,
            FailureCode.PROVIDER_FAILURE.wire(), msg, 0, false, latency, null));
        ChatSpan.failed(span, hot, id, FailureCode.PROVIDER_FAILURE.wire());
        throw new GatewayException(FailureCode.PROVIDER_FAILURE, null, id, msg);
      } finally {
        span.end();
        telemetry.metrics().llmRound(providerId, model, FailureCode.PROVIDER_FAILURE.wire(),
            System.nanoTime() - startNanos, 0, 0, 0);
      }
    }
    breaker.onSuccess();
    long latency = clock.millis() - start;

    Boolean outputValid = null;
    List<String> outputErrors = List.of();
    boolean hasToolUse = reply.content().stream().anyMatch(ContentBlock::isToolUse);
    if (sized.structuredOutput() && sized.outputSchema() != null && !hasToolUse) {
      outputErrors = validateOutput(sized.outputSchema(), ContentBlock.joinText(reply.content()));
      outputValid = outputErrors.isEmpty();
    }
    Optional<Double> priced = costs.of(providerId, model, reply);
    double cost = priced.orElse(0.0);
    held.settle(cost);
    DuplicateAnswers.Recorded recorded;
    try {
      recorded = answers.record(torn.recordIn(ExchangeRecords.success(sized, prompt, contextHash, providerId, reply,
          hasToolUse, latency, priced, outputValid, outputErrors)));
      ChatSpan.succeeded(telemetry, span, hot, recorded.entryId(), reply, sized);
    } finally {
      span.end();
      telemetry.metrics().llmRound(providerId, reply.modelId() != null ? reply.modelId() : model, "success",
          System.nanoTime() - startNanos, reply.inputTokens(), reply.outputTokens(), cost);
      telemetry.metrics().spend(cp.model.TenantId.orDefault(sized.tenant()), sized.agentClass(),
          reply.modelId() != null ? reply.modelId() : model, cost);
    }
    long in = reply.inputTokens() + torn.inputTokens();
    long out = reply.outputTokens() + torn.outputTokens();
    Long budgetLeft = request.tokenBudgetRemaining() == null ? null : request.tokenBudgetRemaining() - in - out;
    PromptResponse own = new PromptResponse(RouteOutcome.SUCCESS, reply.content(), in, out, reply.modelId(),
        providerId, reply.finishReason(), latency, clock.instant().toString(), recorded.entryId(), contextHash,
        outputValid, outputErrors, null, null, budgetLeft, false, cost + torn.cost(), priced.isEmpty());
    // Another attempt's answer to this round was recorded first: the turn goes on with that one.
    return recorded.first().map(f -> DuplicateAnswers.answer(f, own, request.tokenBudgetRemaining())).orElse(own);
  }

  /**
   * The validator's verdict on the output. A validator that throws (text that is not JSON at
   * all, say) makes the output invalid; it must not lose the exchange the provider was already
   * paid for.
   */
  private List<String> validateOutput(JsonNode schema, String text) {
    try {
      return validator.validate(schema, text);
    } catch (RuntimeException e) {
      String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
      return List.of("output could not be validated: " + why);
    }
  }

  /** A request refused before it was sent; {@code kind}: which budget refused it (null: none did). */
  private PromptResponse reject(PromptRequest r, String code, String message, String providerId, long start,
      RefusalKind kind) {
    String id = hot.write(ExchangeRecords.rejected(r, code, message));
    return new PromptResponse(RouteOutcome.REJECTED, List.of(), 0, 0, r.model(), providerId, null,
        clock.millis() - start, clock.instant().toString(), id, null, null, List.of(), code, message,
        r.tokenBudgetRemaining(), false, 0.0, false, kind);
  }
}
