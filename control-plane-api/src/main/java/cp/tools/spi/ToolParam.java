package cp.tools.spi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes one component of an arguments record for the model ({@link ArgumentSchemas}).
 *
 * <pre>{@code record WeatherArgs(@ToolParam("City name, e.g. Lisbon") String city,
 *     @ToolParam(value = "celsius or fahrenheit", required = false) String unit) {}}</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.PARAMETER, ElementType.FIELD})
public @interface ToolParam {
  /** What the argument means; the schema's {@code description}. */
  String value() default "";

  /** Whether the model must give it; components of type {@code Optional} are never required. */
  boolean required() default true;
}
