package dev.ybbench.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellWordsTest {
  @Test
  void wordsAShellWouldReadAreQuoted() {
    assertEquals("--threads 8 -p ysql.url_options=a=b,c:d/e", ShellWords.join(List.of("--threads", "8", "-p",
        "ysql.url_options=a=b,c:d/e")));
    assertEquals("-p 'ysql.url_options=sslmode=verify-full&sslrootcert=/a b.crt'",
        ShellWords.join(List.of("-p", "ysql.url_options=sslmode=verify-full&sslrootcert=/a b.crt")));
    assertEquals("--label 'rc 2.25' --password '***' ''", ShellWords.join(List.of("--label", "rc 2.25", "--password",
        "***", "")));
    assertEquals("'it'\\''s $HOME'", ShellWords.quote("it's $HOME"));
  }
}
