package cp.observability;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The last step of every span before it leaves the process (issue 20 §1): spans carry no error text
 * and no secret, whoever made them (our {@link PlaneSpans}, the Temporal SDK's OpenTracing
 * interceptors, which log a failed activity's exception with its message and stack trace).
 *
 * <ul>
 *   <li>{@code exception} events keep {@code exception.type} (and {@code exception.escaped}) only:
 *       no {@code exception.message}, no {@code exception.stacktrace};
 *   <li>other events lose every attribute whose key names a message, a stack or an error object
 *       (the OpenTracing shim's {@code message}, {@code error.object}, {@code stack});
 *   <li>the status keeps its code, never a description;
 *   <li>every remaining text attribute (span and event) passes {@link SecretMasker#mask}.
 * </ul>
 * A failure is then told by {@code error.type} (our failure code) and the status, as the
 * OpenTelemetry GenAI conventions ask. Thread safety: as the wrapped exporter's.
 */
public final class SanitizingSpanExporter implements SpanExporter {
  /** Event attributes an exception event keeps. */
  static final Set<String> EXCEPTION_KEEPS = Set.of("exception.type", "exception.escaped");

  private final SpanExporter delegate;
  private final SecretMasker masker;

  public SanitizingSpanExporter(SpanExporter delegate, SecretMasker masker) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.masker = Objects.requireNonNull(masker, "masker");
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    List<SpanData> clean = new ArrayList<>(spans.size());
    for (SpanData s : spans) {
      clean.add(sanitize(s));
    }
    return delegate.export(clean);
  }

  /** {@code span} without error text, its text attributes masked. */
  SpanData sanitize(SpanData span) {
    Attributes attributes = clean(span.getAttributes(), false);
    List<EventData> events = new ArrayList<>(span.getEvents().size());
    for (EventData e : span.getEvents()) {
      Attributes a = e.getName().equals("exception") ? exceptionType(e.getAttributes()) : clean(e.getAttributes(), true);
      events.add(EventData.create(e.getEpochNanos(), e.getName(), a));
    }
    StatusData status = StatusData.create(span.getStatus().getStatusCode(), "");
    return new DelegatingSpanData(span) {
      @Override
      public Attributes getAttributes() {
        return attributes;
      }

      @Override
      public List<EventData> getEvents() {
        return events;
      }

      @Override
      public int getTotalRecordedEvents() {
        return events.size();
      }

      @Override
      public StatusData getStatus() {
        return status;
      }
    };
  }

  private static Attributes exceptionType(Attributes in) {
    AttributesBuilder b = Attributes.builder();
    in.forEach((k, v) -> {
      if (EXCEPTION_KEEPS.contains(k.getKey())) {
        put(b, k, v);
      }
    });
    return b.build();
  }

  private Attributes clean(Attributes in, boolean event) {
    AttributesBuilder b = Attributes.builder();
    in.forEach((k, v) -> {
      String key = k.getKey();
      if (key.startsWith("exception.") && !EXCEPTION_KEEPS.contains(key)) {
        return;
      }
      if (event && (key.contains("message") || key.contains("stack") || key.equals("error.object"))) {
        return;
      }
      if (k.getType() == AttributeType.STRING) {
        b.put(AttributeKey.stringKey(key), masker.mask((String) v));
      } else if (k.getType() == AttributeType.STRING_ARRAY) {
        @SuppressWarnings("unchecked")
        List<String> list = (List<String>) v;
        b.put(AttributeKey.stringArrayKey(key), list.stream().map(masker::mask).toList());
      } else {
        put(b, k, v);
      }
    });
    return b.build();
  }

  @SuppressWarnings("unchecked")
  private static void put(AttributesBuilder b, AttributeKey<?> k, Object v) {
    b.put((AttributeKey<Object>) k, v);
  }

  @Override
  public CompletableResultCode flush() {
    return delegate.flush();
  }

  @Override
  public CompletableResultCode shutdown() {
    return delegate.shutdown();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return "SanitizingSpanExporter{" + delegate + "}";
  }
}
