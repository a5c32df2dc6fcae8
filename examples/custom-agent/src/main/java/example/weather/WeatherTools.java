package example.weather;

import cp.tools.spi.ToolBinding;
import cp.tools.spi.ToolCallResult;
import cp.tools.spi.ToolParam;
import cp.tools.spi.ToolProvider;
import java.util.List;
import java.util.Locale;

/**
 * The example's Java tool: {@code get_weather {city}}, found by the worker on
 * {@code CP_TOOLS_PATH} through {@code META-INF/services/cp.tools.spi.ToolProvider}.
 *
 * <p>Deterministic and offline on purpose: the same city always gets the same weather, made up
 * from its name, so the example needs no network and no key. A real tool would call a weather
 * service here, passing {@code ctx.idempotencyKey()} along if the call had an effect to make once.
 */
public final class WeatherTools implements ToolProvider {
  /** The conditions a city's name picks from. */
  static final List<String> CONDITIONS = List.of("sunny", "cloudy", "light rain", "windy", "foggy");
  /** The made-up temperatures span 5..29 C: plausible for any city, obviously not a forecast. */
  static final int LOWEST_CELSIUS = 5;
  static final int CELSIUS_SPAN = 25;

  /** The tool's arguments; the JSON Schema the model sees is derived from this record. */
  public record WeatherArgs(@ToolParam("City name, e.g. Lisbon") String city) {}

  @Override
  public List<ToolBinding> tools() {
    return List.of(ToolBinding.of("get_weather", "Current weather for a city (example data: made up from the"
        + " city's name, no network).", WeatherArgs.class, (args, ctx) -> weather(args.city())));
  }

  /** The weather of {@code city}, or an error the model reads for a blank name. */
  static ToolCallResult weather(String city) {
    String name = city == null ? "" : city.strip();
    if (name.isEmpty()) {
      return ToolCallResult.error("give a city name, e.g. {\"city\": \"Lisbon\"}");
    }
    int h = Math.abs(name.toLowerCase(Locale.ROOT).hashCode() % 1000);
    return ToolCallResult.text(name + ": " + (LOWEST_CELSIUS + h % CELSIUS_SPAN) + " C, "
        + CONDITIONS.get(h % CONDITIONS.size()) + " (example data)");
  }
}
