package cp.gateway.openai;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;

/**
 * Where chat completions live under a base URL.
 *
 * <p>Rule, in order (trailing slashes ignored, query kept):
 * <ol>
 *   <li>a base ending in {@code /chat/completions} is the endpoint itself;
 *   <li>a base with no path ({@code http://localhost:11434}, {@code http://localhost:8000}) is a
 *       server root, and gets {@code /v1/chat/completions} (Ollama, vLLM, llama.cpp all serve it);
 *   <li>any other path is the API root as the OpenAI SDKs take it ({@code https://api.openai.com/v1},
 *       {@code http://localhost:11434/v1}, {@code https://openrouter.ai/api/v1}) and gets
 *       {@code /chat/completions}.
 * </ol>
 */
final class OpenAiEndpoint {
  private static final List<String> RESOURCE = List.of("chat", "completions");
  private static final String DEFAULT_VERSION = "v1";

  private OpenAiEndpoint() {}

  static HttpUrl chatCompletions(URI base) {
    HttpUrl url = HttpUrl.get(base.toString());
    List<String> path = new ArrayList<>(url.encodedPathSegments());
    path.removeIf(String::isEmpty);
    boolean isEndpoint = path.size() >= RESOURCE.size()
        && path.subList(path.size() - RESOURCE.size(), path.size()).equals(RESOURCE);
    if (!isEndpoint) {
      if (path.isEmpty()) {
        path.add(DEFAULT_VERSION);
      }
      path.addAll(RESOURCE);
    }
    return url.newBuilder().encodedPath("/" + String.join("/", path)).build();
  }
}
