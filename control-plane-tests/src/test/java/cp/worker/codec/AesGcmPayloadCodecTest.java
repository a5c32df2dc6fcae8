package cp.worker.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import cp.model.TurnRequest;
import cp.worker.ConfigException;
import cp.worker.PlaneConfig;
import cp.worker.TemporalOptions;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.failure.ApplicationFailure;
import io.temporal.payload.codec.PayloadCodecException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AesGcmPayloadCodecTest {
  static final PayloadKey KEY = randomKey();
  static final PayloadKey OTHER = randomKey();

  static PayloadKey randomKey() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return PayloadKey.of(b);
  }

  static Payload json(String text) {
    return Payload.newBuilder().putMetadata("encoding", ByteString.copyFromUtf8("json/plain"))
        .setData(ByteString.copyFromUtf8(text)).build();
  }

  @Test
  void encode_sealsThePayloadInTemporalsSampleFormat_andDecodeRestoresItExactly() {
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(KEY);
    Payload plain = json("{\"text\":\"secret plans\"}");

    Payload sealed = codec.encode(List.of(plain)).get(0);

    assertEquals("binary/encrypted", sealed.getMetadataOrThrow("encoding").toStringUtf8());
    assertEquals("AES/GCM/NoPadding", sealed.getMetadataOrThrow("encryption-cipher").toStringUtf8());
    assertEquals(KEY.id(), sealed.getMetadataOrThrow("encryption-key-id").toStringUtf8());
    assertEquals(3, sealed.getMetadataCount(), "the original metadata is inside the ciphertext");
    assertFalse(sealed.getData().toStringUtf8().contains("secret plans"));
    assertFalse(sealed.getData().toStringUtf8().contains("json/plain"));
    assertEquals(12 + plain.toByteArray().length + 16, sealed.getData().size(), "nonce + ciphertext + tag");
    assertEquals(plain, codec.decode(List.of(sealed)).get(0));
  }

  @Test
  void everyEncodingUsesAFreshNonce() {
    AesGcmPayloadCodec codec = new AesGcmPayloadCodec(KEY);
    Payload plain = json("same");
    ByteString a = codec.encode(List.of(plain)).get(0).getData();
    ByteString b = codec.encode(List.of(plain)).get(0).getData();
    assertNotEquals(a.substring(0, 12), b.substring(0, 12));
    assertNotEquals(a, b);
  }

  @Test
  void decode_leavesPlainPayloadsAlone_soOldHistoriesStillReplay() {
    Payload plain = json("\"hello\"");
    assertEquals(List.of(plain), new AesGcmPayloadCodec(KEY).decode(List.of(plain)));
  }

  @Test
  void decodeWithAnotherKey_namesBothKeyIds() {
    Payload sealed = new AesGcmPayloadCodec(KEY).encode(List.of(json("x"))).get(0);

    PayloadKeyMismatchException e = assertThrows(PayloadKeyMismatchException.class,
        () -> new AesGcmPayloadCodec(OTHER).decode(List.of(sealed)));

    assertEquals(KEY.id(), e.payloadKeyId());
    assertEquals(OTHER.id(), e.configuredKeyId());
    assertTrue(e.getMessage().contains("key id " + KEY.id()) && e.getMessage().contains("key id " + OTHER.id())
        && e.getMessage().contains("CP_PAYLOAD_KEY"), e.getMessage());
  }

  @Test
  void alteredCiphertext_failsAuthentication() {
    Payload sealed = new AesGcmPayloadCodec(KEY).encode(List.of(json("x"))).get(0);
    byte[] data = sealed.getData().toByteArray();
    data[data.length - 1] ^= 1;
    Payload altered = sealed.toBuilder().setData(ByteString.copyFrom(data)).build();

    PayloadCodecException e = assertThrows(PayloadCodecException.class,
        () -> new AesGcmPayloadCodec(KEY).decode(List.of(altered)));
    assertTrue(e.getMessage().contains("failed authentication"), e.getMessage());

    Payload truncated = sealed.toBuilder().setData(sealed.getData().substring(0, 10)).build();
    assertTrue(assertThrows(PayloadCodecException.class, () -> new AesGcmPayloadCodec(KEY).decode(List.of(truncated)))
        .getMessage().contains("truncated"));
  }

  @Test
  void planeWithoutAKey_refusesAnEncryptedPayloadNamingTheKeyItNeeds() {
    Payload sealed = new AesGcmPayloadCodec(KEY).encode(List.of(json("x"))).get(0);
    PayloadKeyMismatchException e = assertThrows(PayloadKeyMismatchException.class,
        () -> new EncryptedPayloadGuard().decode(List.of(sealed)));
    assertEquals("payload is encrypted (key id " + KEY.id() + ") but CP_PAYLOAD_KEY is not set: set it to the key"
        + " of the workers that wrote this history", e.getMessage());
    Payload plain = json("1");
    assertEquals(List.of(plain), new EncryptedPayloadGuard().encode(List.of(plain)));
  }

  @Test
  void dataConverter_withAKey_roundTripsRecordsAndHidesFailureMessages() {
    DataConverter dc = TemporalOptions.dataConverter(Optional.of(KEY));
    Payload p = dc.toPayload(new TurnRequest("the launch code is 0000")).orElseThrow();
    assertFalse(p.toByteString().toString(StandardCharsets.ISO_8859_1).contains("launch code"));
    assertEquals("the launch code is 0000", dc.fromPayload(p, TurnRequest.class, TurnRequest.class).text());

    var failure = dc.exceptionToFailure(ApplicationFailure.newFailure("prompt was: the launch code", "x"));
    assertFalse(failure.toByteString().toString(StandardCharsets.ISO_8859_1).contains("launch code"),
        "failure messages and stack traces are encrypted too");
    assertTrue(dc.failureToException(failure).getMessage().contains("prompt was: the launch code"));

    DataConverter plain = TemporalOptions.dataConverter(Optional.empty());
    PayloadKeyMismatchException e = assertThrows(PayloadKeyMismatchException.class,
        () -> plain.fromPayload(p, TurnRequest.class, TurnRequest.class));
    assertEquals(KEY.id(), e.payloadKeyId());
    assertThrows(PayloadKeyMismatchException.class, () -> TemporalOptions.dataConverter(Optional.of(OTHER))
        .fromPayload(p, TurnRequest.class, TurnRequest.class));
  }

  // ------------------------------------------------------------------ key parsing

  @Test
  void key_fromBase64_hasAStableEightHexId_andNeverPrintsItself() {
    byte[] raw = new byte[32];
    raw[0] = 7;
    String b64 = Base64.getEncoder().encodeToString(raw);
    PayloadKey k = PayloadKey.parse(" " + b64 + "\n");
    assertEquals(PayloadKey.of(raw), k);
    assertTrue(k.id().matches("[0-9a-f]{8}"), k.id());
    assertEquals(k.id(), PayloadKey.parse(Base64.getUrlEncoder().withoutPadding().encodeToString(raw)).id());
    assertEquals("PayloadKey(id=" + k.id() + ")", k.toString());
  }

  @Test
  void badBase64_isAConfigExceptionNamingTheVariable_withoutQuotingTheValue() {
    ConfigException e = assertThrows(ConfigException.class, () -> PayloadKey.parse("not base64 at all!!"));
    assertEquals("CP_PAYLOAD_KEY", e.variable());
    assertTrue(e.getMessage().startsWith("CP_PAYLOAD_KEY is not valid base64"), e.getMessage());
    assertFalse(e.getMessage().contains("base64 at all"), e.getMessage());
    assertTrue(e.getMessage().contains("openssl rand -base64 32"), e.getMessage());
  }

  @Test
  void wrongLength_isAConfigExceptionSayingHowManyBytes() {
    String sixteen = Base64.getEncoder().encodeToString(new byte[16]);
    ConfigException e = assertThrows(ConfigException.class,
        () -> PlaneConfig.fromEnv(Map.of("CP_HOME", "/tmp/x", "CP_PAYLOAD_KEY", sixteen)));
    assertEquals("CP_PAYLOAD_KEY", e.variable());
    assertEquals("CP_PAYLOAD_KEY decodes to 16 bytes; AES-256 needs exactly 32: generate one with"
        + " 'openssl rand -base64 32'", e.getMessage());
  }

  @Test
  void encryptionIsOffByDefault_andOnWithTheKey_asConfigSays() {
    PlaneConfig off = PlaneConfig.fromEnv(Map.of("CP_HOME", "/tmp/x", "CP_PAYLOAD_KEY", "  "));
    assertTrue(off.payloadKey().isEmpty());
    assertTrue(row(off).startsWith("off"), row(off));

    String b64 = Base64.getEncoder().encodeToString(new byte[32]);
    PlaneConfig on = PlaneConfig.fromEnv(Map.of("CP_HOME", "/tmp/x", "CP_PAYLOAD_KEY", b64));
    assertEquals("on (AES-256-GCM, CP_PAYLOAD_KEY key id " + on.payloadKey().orElseThrow().id() + ")", row(on));
    assertFalse(on.describe().stream().anyMatch(r -> r[1].contains(b64)));
  }

  private static String row(PlaneConfig c) {
    return c.describe().stream().filter(r -> r[0].equals("payload encryption")).findFirst().orElseThrow()[1];
  }
}
