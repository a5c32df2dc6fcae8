package cp.gateway.anthropic;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;

/**
 * Where the Messages API lives under a base URL.
 *
 * <p>Rule: the base is the API root without version, as in the SDKs' {@code ANTHROPIC_BASE_URL}
 * ({@code https://api.anthropic.com} gives {@code /v1/messages}). A base that already ends in
 * {@code /v1} gets only {@code /messages}, and one that ends in {@code /v1/messages} is used as it
 * is, so a proxy URL copied with or without the version works. Query parameters are kept.
 */
final class AnthropicEndpoint {
  private static final String VERSION = "v1";
  private static final String RESOURCE = "messages";

  private AnthropicEndpoint() {}

  static HttpUrl messages(URI base) {
    HttpUrl url = HttpUrl.get(base.toString());
    List<String> path = new ArrayList<>(url.encodedPathSegments());
    path.removeIf(String::isEmpty);
    int n = path.size();
    boolean hasResource = n >= 2 && path.get(n - 2).equals(VERSION) && path.get(n - 1).equals(RESOURCE);
    if (!hasResource) {
      if (n == 0 || !path.get(n - 1).equals(VERSION)) {
        path.add(VERSION);
      }
      path.add(RESOURCE);
    }
    return url.newBuilder().encodedPath("/" + String.join("/", path)).build();
  }
}
