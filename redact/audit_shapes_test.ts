// Copyright 2026 the brigade authors. MIT license.

import { redact } from "@brigade/transcript/redact";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ALNUM,
  AWS_KEY_ID,
  type Case,
  checkTable,
  checkUnchanged,
  DIGITS,
  NUM_RUNS,
  PROJECT_KEY,
  R,
  safeText,
  type Secret,
  withDigit,
} from "../tests/_redact_cases.ts";

// The shapes the security audit of issue 30 found neither caught nor listed
// as not caught, the look-alikes it found changed, and colon-form colours.

Deno.test("redact() replaces an XML element's text when the element is secret-named", async (t) => {
  await checkTable(t, [
    ["<password>hunter2</password>", `<password>${R}</password>`],
    ["<Password>letmein</Password>", `<Password>${R}</Password>`],
    ["<db_password>p w 1</db_password>", `<db_password>${R}</db_password>`],
    ['<password encrypted="false">x</password>', `<password encrypted="false">${R}</password>`],
    ["<ns:ClientSecret>abc</ns:ClientSecret>", `<ns:ClientSecret>${R}</ns:ClientSecret>`],
    ["<AccountKey>abc==</AccountKey>", `<AccountKey>${R}</AccountKey>`],
    ["<token>abc</token><id>1</id>", `<token>${R}</token><id>1</id>`],
    [String.raw`"<password>hunter2<\/password>"`, String.raw`"<password>${R}<\/password>"`],
  ]);
  await checkUnchanged(t, [
    "<password></password>",
    "<password/>",
    "<password />text</b>",
    "the <password> element",
    "replace <token> with yours</p>",
    "<password>hunter2</pass>",
    "<passwordHash>abc</passwordHash>",
    "<max_tokens>4096</max_tokens>",
    "<token>ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</token>",
  ]);
});

Deno.test("redact() replaces the value of a password input, wherever it comes after the type", async (t) => {
  await checkTable(t, [
    ['<input type="password" value="hunter2">', `<input type="password" value="${R}">`],
    ["<input type='password' value='hunter2'>", `<input type='password' value='${R}'>`],
    [
      '<input type="password" name="pw" value="hunter2">',
      `<input type="password" name="pw" value="${R}">`,
    ],
    [
      '<input type="password" id="pw" class="form-control" required autocomplete="off" value="x">',
      `<input type="password" id="pw" class="form-control" required autocomplete="off" value="${R}">`,
    ],
    [
      '<input\n  type="password"\n  name="pw"\n  value="hunter2"\n/>',
      `<input\n  type="password"\n  name="pw"\n  value="${R}"\n/>`,
    ],
    [
      String.raw`"<input type=\"password\" name=\"pw\" value=\"hunter2\">"`,
      String.raw`"<input type=\"password\" name=\"pw\" value=\"${R}\">"`,
    ],
  ]);
  await checkUnchanged(t, [
    '<input type="password" name="pw">',
    '<input type="password" value="">',
    '<input type="text" name="user" value="admin1">',
    '<label for="password" class="x" value="y">',
    // More than eight attributes between the type and the value: not read.
    `<input type="password" ${'a="1" '.repeat(9)}value="kept">`,
  ]);
});

Deno.test("redact() replaces an Azure account key and a shared access signature", async (t) => {
  const key =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  await checkTable(t, [
    [
      `AccountName=a;AccountKey=${key};EndpointSuffix=x`,
      `AccountName=a;AccountKey=${R};EndpointSuffix=x`,
    ],
    [`AccountKey=${key}`, `AccountKey=${R}`],
    [`"accountKey": "${key}"`, `"accountKey": "${R}"`],
    [`STORAGE_ACCOUNT_KEY=${key}`, `STORAGE_ACCOUNT_KEY=${R}`],
    [
      `SharedAccessKeyName=Root;SharedAccessKey=${key}`,
      `SharedAccessKeyName=Root;SharedAccessKey=${R}`,
    ],
    ["b.txt?sv=2022-11-02&sig=abcDEF123%2Bxyz%3D", `b.txt?sv=2022-11-02&sig=${R}`],
    ["b.txt?sig=abcDEF123%2Bxyz%3D&se=2026", `b.txt?sig=${R}&se=2026`],
    ["b.txt?sv=1&amp;sig=abcDEF123%2B", `b.txt?sv=1&amp;sig=${R}`],
    [String.raw`b.txt?sv=1\u0026sig=abcDEF123%2B`, String.raw`b.txt?sv=1\u0026sig=${R}`],
    [
      "SharedAccessSignature=sv=2015&sr=x&sig=abcDEF123%2B&se=1",
      `SharedAccessSignature=sv=2015&sr=x&sig=${R}&se=1`,
    ],
  ]);
  await checkUnchanged(t, [
    "SharedAccessKeyName=RootManageSharedAccessKey",
    "AccountName=acct;EndpointSuffix=core.windows.net",
    "?sign=up&design=a1b2c3&signature=pending",
    "sig=abcDEF123 (not a query parameter)",
    "&sig=",
  ]);
});

Deno.test("redact() replaces a URL's user name when it is a key, as a Sentry DSN's", async (t) => {
  const key = "e3b0c44298fc1c149afbf4c8996fb924";
  await checkTable(t, [
    [
      `https://${key}@o450123.ingest.sentry.io/5501234`,
      `https://${R}@o450123.ingest.sentry.io/5501234`,
    ],
    [`https://${key}@sentry.example.com:9000/2`, `https://${R}@sentry.example.com:9000/2`],
    [
      `dsn: '${"https"}://${key}@o1.ingest.us.sentry.io/2'`,
      `dsn: 'https://${R}@o1.ingest.us.sentry.io/2'`,
    ],
    ["https://deploy_token_2024_abcdefgh@git.example.com/r", `https://${R}@git.example.com/r`],
  ]);
  await checkUnchanged(t, [
    "https://o450123.ingest.sentry.io/api/5501234/envelope/",
    "ssh://git@github.com/org/repo.git",
    "ftp://anonymous@ftp.example.com/pub",
    "https://john.doe.the.second.of.that.name@example.com/",
    "https://averyveryverylongusername@example.com/",
  ]);
});

Deno.test("redact() replaces the password joined to a MySQL client's -p", async (t) => {
  await checkTable(t, [
    ["mysql -u root -pS3cretPw db", `mysql -u root -p${R} db`],
    ["mysql -uroot -phunter2", `mysql -uroot -p${R}`],
    [
      "/usr/bin/mysql -u root -pletmein -e 'show tables'",
      `/usr/bin/mysql -u root -p${R} -e 'show tables'`,
    ],
    ["mysqldump -uroot -p'S3 cret' app > app.sql", `mysqldump -uroot -p'${R}' app > app.sql`],
    ['mariadb -u root -p"S3cret" app', `mariadb -u root -p"${R}" app`],
    ["mysql -h db \\\n  -u root -pS3cret app", `mysql -h db \\\n  -u root -p${R} app`],
    ["$ mysql -uroot -pS3cret; echo done", `$ mysql -uroot -p${R}; echo done`],
    [`{"command":"mysql -uroot -pS3cret app"}`, `{"command":"mysql -uroot -p${R} app"}`],
    ["mysql -e 'use mysql' -pS3cret", `mysql -e 'use mysql' -p${R}`],
    ["mysql --password=letmein app", `mysql --password=${R} app`],
    // A Windows client, by its file's name or its whole path.
    ["mysql.exe -u root -pS3cret app", `mysql.exe -u root -p${R} app`],
    [
      String.raw`C:\mysql\bin\mysqldump.exe -uroot -pS3cret app`,
      String.raw`C:\mysql\bin\mysqldump.exe -uroot -p` + `${R} app`,
    ],
    // PowerShell's call of a quoted path (a space in "Program Files"), as run and inside JSON.
    [
      String.raw`{"command":"& \"C:\\bin\\mysql.exe\" -uroot -pS3cret app"}`,
      String.raw`{"command":"& \"C:\\bin\\mysql.exe\" -uroot -p` + `${R} app"}`,
    ],
    [
      String.raw`& "C:\Program Files\MySQL\MySQL Server 8.0\bin\mysql.exe" -uroot -pS3cret app`,
      String.raw`& "C:\Program Files\MySQL\MySQL Server 8.0\bin\mysql.exe" -uroot -p` + `${R} app`,
    ],
    ["mysql --password=$DB_PASSWORD app", `mysql --password=${R} app`],
    ['mysql --password="let me in" app', `mysql --password="${R}" app`],
    ["psql --db-password=letmein", `psql --db-password=${R}`],
  ]);
  await checkUnchanged(t, [
    "mysql -u root -p app",
    "mysql -u root -p",
    "mysql -u root -P 3306 app",
    "mysql -u root -p<password> app",
    "mysql -u root app | grep -pattern",
    "mysql -u root app\ngrep -pattern x",
    "mysql://root@localhost -ptest",
    "mysqlx -pfoo",
    "mysql --password= app",
    "mysql --password app",
    "mysql --password=${DB_PASSWORD} app",
    "x--password=letmein",
    "mysql --password=$(cat pw) app",
  ]);
});

Deno.test("redact() replaces a .netrc password", async (t) => {
  await checkTable(t, [
    ["machine h login u password p", `machine h login u password ${R}`],
    ["machine h password p login u", `machine h password ${R} login u`],
    ["machine h login u account a password p", `machine h login u account a password ${R}`],
    ["default login anonymous password me@example.com", `default login anonymous password ${R}`],
    ["machine h\n  login u\n  password p w\n", `machine h\n  login u\n  password ${R} w\n`],
    ["machine h\\n\\tlogin u\\n\\tpassword p\\n", `machine h\\n\\tlogin u\\n\\tpassword ${R}\\n`],
    [`{"netrc":"machine h login u password p"}`, `{"netrc":"machine h login u password ${R}"}`],
  ]);
  await checkUnchanged(t, [
    "Enter your login and password below.",
    "login u password p",
    "the machine password is rotated daily",
    "machine h login u password",
    "machine h login u Password p",
    "machine h password p",
    "the default password callback is used",
    "the default password is admin",
    "machine learning password managers",
    "echo machine h login",
  ]);
});

Deno.test("redact() keeps a placeholder after a known prefix as written", async (t) => {
  await checkUnchanged(t, [
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    'token: "gho_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"',
    "GITHUB_PAT=github_pat_xxxxxxxxxxxxxxxxxxxxxx",
    "OPENAI_API_KEY=sk-XXXXXXXXXXXXXXXXXXXXXXXX",
    "OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxxxxx",
    "ANTHROPIC_API_KEY=sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXX",
    "STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxx",
    "STRIPE_KEY=rk_test_****************",
    "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
    "GOOGLE_API_KEY=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "SLACK_TOKEN=xoxb-xxxxxxxxxxxx",
    "api_key=sk-...",
    "Authorization: Bearer ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "sk-XXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  ]);
  // A real key after the same prefix, or a run that only starts with x, still goes.
  await checkTable(t, [
    ["GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx1", `GITHUB_TOKEN=${R}`],
    ["OPENAI_API_KEY=sk-XXXXXXXXXXXXXXXXXXXXXXXa", `OPENAI_API_KEY=${R}`],
    ["password=XXXXXXXX", `password=${R}`],
  ]);
});

Deno.test("redact() reads an empty field before another pair as empty", async (t) => {
  await checkUnchanged(t, [
    "password= user=admin",
    "password=\tuser=admin",
    'level=warn password= user=admin msg="login failed"',
    "token= scope=repo1",
  ]);
  await checkTable(t, [
    ["password= token=abc123", `password= token=${R}`],
    ["password = user=admin1", `password = ${R}`],
    ["password= hunter2", `password= ${R}`],
    ["password= abc123==", `password= ${R}`],
    ["password: user=admin1", `password: ${R}`],
  ]);
});

Deno.test("redact() finds a shape after a colour sequence whose parameters are split by colons", async (t) => {
  const cases: Case[] = [];
  for (const esc of ["\x1b", "\\u001b", "\\\\\\u001b", "\\x1b", "\\033", "\\e"]) {
    for (const sgr of ["[38:5:196m", "[38:2::255:0:0m", "[4:3m", "[1;38:5:2m"]) {
      const colour = `${esc}${sgr}`;
      const reset = `${esc}[0m`;
      cases.push(
        [`${colour}${PROJECT_KEY}${reset}`, `${colour}${R}${reset}`],
        [`${colour}${AWS_KEY_ID}${reset}`, `${colour}${R}${reset}`],
        [`token=${colour}abc123def${reset}`, `token=${colour}${R}${reset}`],
      );
    }
  }
  cases.push([
    `\x1b[34;1m"api_key"\x1b[0m\x1b[1;39m:\x1b[0m \x1b[38:5:2m"abc123"\x1b[0m`,
    `\x1b[34;1m"api_key"\x1b[0m\x1b[1;39m:\x1b[0m \x1b[38:5:2m"${R}"\x1b[0m`,
  ]);
  await checkTable(t, cases);
  await checkUnchanged(t, ["\x1b[38:5:196msk-learn\x1b[0m", "x1b[38:5:1msk-0123456789ABCDEFGHIJ"]);
});

// Generated secrets of the audit's shapes: a body with a letter pair and a
// digit in it, so that it occurs nowhere else in the text.
const AUDIT_CHARS = ALNUM + "!#$%*+-./:=?@^_~";

function auditBody(chars: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  return withDigit(chars, minLength, maxLength).map((body) => `Zq${body}`);
}

const auditSecret: fc.Arbitrary<Secret> = fc.oneof(
  fc.tuple(
    fc.constantFrom("password", "Password", "db_password", "ClientSecret", "apiKey", "token"),
    auditBody(AUDIT_CHARS + " ", 6, 40),
  ).map(([name, body]) => ({
    text: `<${name}>${body}</${name}>`,
    body,
    redacted: `<${name}>${R}</${name}>`,
  })),
  fc.tuple(
    fc.subarray(['name="pw"', 'id="pw"', "required", "class='a b'", "autocomplete=off"]),
    auditBody(ALNUM + " -_.:=,;/!?@", 6, 40),
  ).map(([attributes, body]) => {
    const head = `<input type="password" ${attributes.map((a) => `${a} `).join("")}value="`;
    return { text: `${head}${body}">`, body, redacted: `${head}${R}">` };
  }),
  fc.tuple(fc.constantFrom("AccountKey", "SharedAccessKey"), auditBody(ALNUM + "+/", 40, 86))
    .map(([name, key]) => ({
      text: `AccountName=a;${name}=${key}==;EndpointSuffix=core.windows.net`,
      body: key,
      redacted: `AccountName=a;${name}=${R};EndpointSuffix=core.windows.net`,
    })),
  auditBody(ALNUM + "%", 20, 60).map((sig) => ({
    text: `https://a.blob.core.windows.net/c?sv=2022-11-02&sig=${sig}&se=2026`,
    body: sig,
    redacted: `https://a.blob.core.windows.net/c?sv=2022-11-02&sig=${R}&se=2026`,
  })),
  withDigit(DIGITS + "abcdef", 31, 31).map((key) => ({
    text: `https://${key}@o1.ingest.sentry.io/2`,
    body: key,
    redacted: `https://${R}@o1.ingest.sentry.io/2`,
  })),
  fc.tuple(fc.constantFrom("mysql", "mysqldump", "mariadb"), auditBody(AUDIT_CHARS, 6, 30))
    .map(([command, password]) => ({
      text: `${command} -u root -p${password} app`,
      body: password,
      redacted: `${command} -u root -p${R} app`,
    })),
  fc.tuple(fc.constantFrom(" ", "\n  ", "\t"), auditBody(AUDIT_CHARS, 6, 30))
    .map(([gap, password]) => ({
      text: `machine h${gap}login u${gap}password ${password}`,
      body: password,
      redacted: `machine h${gap}login u${gap}password ${R}`,
    })),
);

Deno.test("redact() never lets a generated secret of the audit's shapes survive", async (t) => {
  await t.step("as exactly its redacted form between lines of prose", () => {
    fc.assert(
      fc.property(safeText, auditSecret, safeText, (a, s, b) => {
        assert.equal(redact(`${a}\n${s.text}\n${b}`), `${a}\n${s.redacted}\n${b}`);
        assert.equal(redact(s.redacted), s.redacted);
      }),
      { numRuns: NUM_RUNS },
    );
  });
  await t.step("JSON-escaped up to twice", () => {
    fc.assert(
      fc.property(
        fc.array(auditSecret, { minLength: 1, maxLength: 4 }),
        fc.nat(2),
        (secrets, n) => {
          let text = secrets.map((s) => s.text).join("\n");
          for (let i = 0; i < n; i++) text = JSON.stringify(text);
          const out = redact(text);
          for (const s of secrets) assert.ok(!out.includes(s.body), `${s.body} survives in ${out}`);
          assert.equal(redact(out), out);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

Deno.test("redact() reads the audit's triggers repeated over 1 MB, and long runs after them", async (t) => {
  const MB = 1024 * 1024;
  const fill = (unit: string, size: number): string =>
    unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const times = (unit: string): number => Math.ceil(MB / unit.length);
  const key = "sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs";
  const cases: [name: string, input: string, expected: string][] = [
    ["<password> opens", fill("<password>", MB), fill("<password>", MB)],
    ["<password> then a run", "<password>" + fill("a", MB), "<password>" + fill("a", MB)],
    [
      "<password> elements",
      "<password>x1</password>".repeat(times("<password>x1</password>")),
      `<password>${R}</password>`.repeat(times("<password>x1</password>")),
    ],
    [
      '<input type="password"',
      fill('<input type="password" ', MB),
      fill('<input type="password" ', MB),
    ],
    [
      'type="password" a="password"',
      fill('type="password" a="password" ', MB),
      fill('type="password" a="password" ', MB),
    ],
    ["&sig=", fill("&sig=", MB), fill("&sig=", MB)],
    [
      "://key@",
      "https://abc123def4567890abc123@".repeat(times("https://abc123def4567890abc123@")),
      `https://${R}@`.repeat(times("https://abc123def4567890abc123@")),
    ],
    ["mysql", fill("mysql ", MB), fill("mysql ", MB)],
    [
      "mysql then -p arguments",
      "mysql " + "-pS3cret ".repeat(times("-pS3cret ")),
      "mysql " + `-p${R} `.repeat(times("-pS3cret ")),
    ],
    ["mysql then an open quote", "mysql '" + fill("mysql ", MB), "mysql '" + fill("mysql ", MB)],
    [
      ".netrc entries",
      "machine h login u password p1 ".repeat(times("machine h login u password p1 ")),
      `machine h login u password ${R} `.repeat(times("machine h login u password p1 ")),
    ],
    [
      "login x password password",
      "login x " + fill("password ", MB),
      "login x " + fill("password ", MB),
    ],
    ["password= user=a", fill("password= user=a ", MB), fill("password= user=a ", MB)],
    ["ghp_ then x", "GITHUB_TOKEN=ghp_" + fill("x", MB), "GITHUB_TOKEN=ghp_" + fill("x", MB)],
    [
      "ghp_xxx… tokens",
      fill("ghp_" + "x".repeat(36) + " ", MB),
      fill("ghp_" + "x".repeat(36) + " ", MB),
    ],
    ["colon-form colours before sk-", fill("\x1b[38:5:196msk-", MB), fill("\x1b[38:5:196msk-", MB)],
    [
      "colon-form colours before keys",
      `\x1b[38:5:196m${key} `.repeat(times(`\x1b[38:5:196m${key} `)),
      `\x1b[38:5:196m${R} `.repeat(times(`\x1b[38:5:196m${key} `)),
    ],
  ];
  for (const [name, input, expected] of cases) {
    await t.step(name, () => assert.ok(redact(input) === expected, name));
  }
  const runs: [name: string, input: string, expected: string][] = [
    [
      "<password> then 8 MB",
      `<password>${fill("a", 8 * MB)}</password>`,
      `<password>${R}</password>`,
    ],
    ["mysql -p then 8 MB", `mysql -p${fill("a", 8 * MB)}`, `mysql -p${R}`],
    [
      ".netrc password, first, then 8 MB",
      `machine h password ${fill("a", 8 * MB)} login u`,
      `machine h password ${R} login u`,
    ],
    [
      ".netrc password then 8 MB",
      `machine h login u password ${fill("a", 8 * MB)}`,
      `machine h login u password ${R}`,
    ],
    ["?sig= then 8 MB", `?sig=${fill("a1", 8 * MB)}`, `?sig=${R}`],
    ["a key user of 8 MB", `https://${fill("a1", 8 * MB)}@h`, `https://${R}@h`],
    [
      'type="password" then 8 MB of attributes',
      `<input type="password" ${fill('a="b" ', 8 * MB)}`,
      `<input type="password" ${fill('a="b" ', 8 * MB)}`,
    ],
  ];
  for (const [name, input, expected] of runs) {
    await t.step(name, () => assert.ok(redact(input) === expected, name));
  }
  await t.step("repeated, each stays idempotent", () => {
    for (
      const unit of [
        "machine " + "\\n".repeat(40) + " password ",
        "machine h login u account a login u password ",
        "AccountKey=",
        "--password=",
        '<input type="password" name="a" value="',
      ]
    ) {
      const once = redact(fill(unit, MB));
      assert.ok(redact(once) === once, unit);
    }
  });
});
