package cp.gateway.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpeechActRulesTest {
  @ParameterizedTest(name = "\"{0}\" -> {1}, {2}")
  @CsvSource(delimiter = '|', textBlock = """
      hello                                   | greeting         | low
      Hi there!                               | greeting         | low
      good morning                            | greeting         | low
      hey, how are you?                       | greeting         | low
      I'm back                                | reentry_greeting | low
      I’m back again                          | reentry_greeting | low
      hello again                             | reentry_greeting | low
      bye                                     | farewell         | low
      ok thanks, goodbye!                     | farewell         | low
      see you tomorrow                        | farewell         | low
      what packages are installed?            | question         | low
      are all gates passing?                  | question         | low
      hello, what packages are installed?     | question         | low
      why?                                    | question         | high
      is it done                              | question         | high
      how does the attention stage pick its context | question   | medium
      what is in HOT/config/admin_config.json | question         | low
      the weather is nice today               | question         | medium
      read README.md                          | command          | low
      show me the file HOT/x.json             | command          | low
      please list packages                    | command          | low
      explain                                 | command          | high
      explain how work orders are planned and retried | command  | medium
      ''                                      | question         | high
      """)
  void classifiesSpeechActAndAmbiguity(String utterance, String speechAct, String ambiguity) {
    Classification c = SpeechActRules.classify(utterance);
    assertEquals(speechAct, c.speechAct(), "speech_act of \"" + utterance + "\"");
    assertEquals(ambiguity, c.ambiguity(), "ambiguity of \"" + utterance + "\"");
  }

  @ParameterizedTest(name = "\"{0}\" -> intent {1}, needs_tools {2}")
  @CsvSource(delimiter = '|', textBlock = """
      what packages are installed?  | list_packages | true
      read README.md                | read_file     | true
      check the gates               | gate_check    | true
      show the last exchanges       | query_ledger  | true
      hello                         | greet         | false
      I'm back                      | resume        | false
      bye                           | end_session   | false
      why is the sky blue?          | ask           | false
      explain the design            | instruct      | false
      """)
  void intentIsTheRequestedToolOrTheActsPurpose(String utterance, String intent, boolean needsTools) {
    Classification c = SpeechActRules.classify(utterance);
    assertEquals(intent, c.intent());
    assertEquals(needsTools, c.needsTools());
  }
}
