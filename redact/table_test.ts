// Copyright 2026 the brigade authors. MIT license.

// A redaction table: realistic secrets in the places they turn up (log lines,
// .env files, curl commands, JSON, YAML, stack traces, source code), each with
// its expected output written out, and look-alikes that must stay unchanged.
// Every value here is a fake or a published documentation example.

import { redact, REDACTED_SECRET } from "@brigade/transcript/redact";
import assert from "node:assert/strict";

const R = REDACTED_SECRET;

const OPENAI = "sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs_kN7bD1eG5aT0uIo-Xw6yZ2q";
const ANTHROPIC = "sk-ant-api03-AbCdEf0123456789_-xyzXYZ-QrStUv98765_wXyZ-AA";
const GITHUB = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const GITHUB_APP = "ghs_2aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV3wX";
const GITHUB_PAT = "github_pat_11AABBCCD0abcdefghijkl_" +
  "MNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN";
const SLACK = "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy";
const SLACK_USER = "xoxp-4956821392-4954982934-5007651271-0a1b2c3d4e5f";
const STRIPE = "sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUv";
const STRIPE_TEST = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";
const STRIPE_RESTRICTED = "rk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUv";
const GOOGLE = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY";
const GITLAB = "glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn";
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ" +
  ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const AWS_ID = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const ESC = "\x1b";
const AZURE_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const SAS_SIG = "w8Ve2jK0%2B7QyTzq1lF3nRsXcB9dA4hPuMiE6oG5vNkY%3D";
const SENTRY_KEY = "e3b0c44298fc1c149afbf4c8996fb924";

/** A secret in context, and what redaction must make of it. */
const SECRETS: [context: string, input: string, expected: string][] = [
  // .env files
  [".env", `OPENAI_API_KEY=${OPENAI}`, `OPENAI_API_KEY=${R}`],
  [".env", `GITHUB_TOKEN=${GITHUB}\n`, `GITHUB_TOKEN=${R}\n`],
  [".env", `STRIPE_SECRET_KEY=${STRIPE}`, `STRIPE_SECRET_KEY=${R}`],
  [".env", `SLACK_BOT_TOKEN=${SLACK}`, `SLACK_BOT_TOKEN=${R}`],
  [
    ".env",
    "DATABASE_URL=postgres://app:Sup3rS3cret@db.internal:5432/app",
    `DATABASE_URL=postgres://app:${R}@db.internal:5432/app`,
  ],
  [".env", "REDIS_URL=redis://:p4ssw0rd@cache:6379/0", `REDIS_URL=redis://:${R}@cache:6379/0`],
  [".env", `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, `AWS_SECRET_ACCESS_KEY=${R}`],
  [".env", `AWS_ACCESS_KEY_ID=${AWS_ID}`, `AWS_ACCESS_KEY_ID=${R}`],
  [".env", `export ANTHROPIC_API_KEY="${ANTHROPIC}"`, `export ANTHROPIC_API_KEY="${R}"`],
  [".env (Docker Compose)", "  - POSTGRES_PASSWORD=example123", `  - POSTGRES_PASSWORD=${R}`],
  // log lines
  [
    "log line",
    `2026-01-01T12:00:00Z INFO sending headers={"Authorization": "Bearer ${JWT}"}`,
    `2026-01-01T12:00:00Z INFO sending headers={"Authorization": "Bearer ${R}"}`,
  ],
  [
    "log line",
    `DEBUG github: GET /user with token ${GITHUB}`,
    `DEBUG github: GET /user with token ${R}`,
  ],
  ["log line", `> Authorization: Bearer abcDEF1234567890`, `> Authorization: Bearer ${R}`],
  [
    "log line, coloured",
    `${ESC}[31mError:${ESC}[0m invalid api key ${OPENAI}`,
    `${ESC}[31mError:${ESC}[0m invalid api key ${R}`,
  ],
  [
    "log line",
    `slack_sdk.errors.SlackApiError: invalid_auth for ${SLACK_USER}`,
    `slack_sdk.errors.SlackApiError: invalid_auth for ${R}`,
  ],
  ["log line", `Set-Cookie: session=${JWT}; HttpOnly`, `Set-Cookie: session=${R}; HttpOnly`],
  // curl commands
  [
    "curl",
    `curl -H "Authorization: token ${GITHUB}" https://api.github.com/user`,
    `curl -H "Authorization: token ${R}" https://api.github.com/user`,
  ],
  [
    "curl",
    "curl -H 'Authorization: Basic YWRtaW46aHVudGVyMg==' https://example.com/api",
    `curl -H 'Authorization: Basic ${R}' https://example.com/api`,
  ],
  [
    "curl",
    `curl https://api.stripe.com/v1/charges -u ${STRIPE_TEST}:`,
    `curl https://api.stripe.com/v1/charges -u ${R}:`,
  ],
  [
    "curl",
    `curl "https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${GOOGLE}"`,
    `curl "https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${R}"`,
  ],
  [
    "curl",
    `curl --header "PRIVATE-TOKEN: ${GITLAB}" https://gitlab.com/api/v4/projects`,
    `curl --header "PRIVATE-TOKEN: ${R}" https://gitlab.com/api/v4/projects`,
  ],
  [
    "curl",
    `curl -H "Authorization: Bearer ${GITHUB_PAT}" https://api.github.com`,
    `curl -H "Authorization: Bearer ${R}" https://api.github.com`,
  ],
  // JSON
  [
    "JSON",
    '{"api_key": "abc123def456", "model": "gpt-4o"}',
    `{"api_key": "${R}", "model": "gpt-4o"}`,
  ],
  ["JSON", '{"password":"correct horse battery staple"}', `{"password":"${R}"}`],
  ["JSON in a string", '"{\\"token\\":\\"abc123\\"}"', `"{\\"token\\":\\"${R}\\"}"`],
  [
    "JSON",
    `{"id_token":"${JWT}","expires_in":3600}`,
    `{"id_token":"${R}","expires_in":3600}`,
  ],
  [
    "JSON in a string",
    '"{\\"headers\\":{\\"Authorization\\":\\"Basic dXNlcjpwYXNzd29yZA==\\"}}"',
    `"{\\"headers\\":{\\"Authorization\\":\\"Basic ${R}\\"}}"`,
  ],
  [
    "JSON, coloured by jq -C",
    `${ESC}[34;1m"token"${ESC}[0m${ESC}[1;39m:${ESC}[0m ${ESC}[0;32m"abc123def"${ESC}[0m`,
    `${ESC}[34;1m"token"${ESC}[0m${ESC}[1;39m:${ESC}[0m ${ESC}[0;32m"${R}"${ESC}[0m`,
  ],
  [
    "JSON",
    `{"webhook": {"slack": "${SLACK}", "stripe": "${STRIPE_RESTRICTED}"}}`,
    `{"webhook": {"slack": "${R}", "stripe": "${R}"}}`,
  ],
  // YAML
  ["YAML", "database:\n  password: s3cr3t!\n", `database:\n  password: ${R}\n`],
  ["YAML", `slack:\n  bot_token: ${SLACK}\n`, `slack:\n  bot_token: ${R}\n`],
  [
    "YAML",
    '  DB_URL: "mysql://root:rootpw1@mysql:3306/app"',
    `  DB_URL: "mysql://root:${R}@mysql:3306/app"`,
  ],
  ["YAML", `maps:\n  apiKey: ${GOOGLE}`, `maps:\n  apiKey: ${R}`],
  // stack traces
  [
    "stack trace",
    "psycopg2.OperationalError: could not connect to postgresql://admin:Adm1nPass@10.0.0.5:5432/prod",
    `psycopg2.OperationalError: could not connect to postgresql://admin:${R}@10.0.0.5:5432/prod`,
  ],
  [
    "stack trace",
    `Error: 401 Unauthorized (token=${GITHUB})\n    at Client.request (client.js:42:11)`,
    `Error: 401 Unauthorized (token=${R})\n    at Client.request (client.js:42:11)`,
  ],
  [
    "stack trace",
    "requests.exceptions.HTTPError: 401 Client Error for url: https://api.example.com/v1?api_key=abc123def456&q=1",
    `requests.exceptions.HTTPError: 401 Client Error for url: https://api.example.com/v1?api_key=${R}&q=1`,
  ],
  ["stack trace", `panic: stripe: invalid key ${STRIPE}`, `panic: stripe: invalid key ${R}`],
  // git and package managers
  [
    "git",
    `git clone https://oauth2:${GITLAB}@gitlab.com/group/repo.git`,
    `git clone https://oauth2:${R}@gitlab.com/group/repo.git`,
  ],
  [
    "git",
    `origin\thttps://${GITHUB_APP}@github.com/org/repo.git (fetch)`,
    `origin\thttps://${R}@github.com/org/repo.git (fetch)`,
  ],
  [
    ".npmrc",
    "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0",
    `//registry.npmjs.org/:_authToken=${R}`,
  ],
  // source code
  ["Rust", `const API_KEY: &str = "${ANTHROPIC}";`, `const API_KEY: &str = "${R}";`],
  ["Rust", `static TOKEN: &'static str = "${GITHUB}";`, `static TOKEN: &'static str = "${R}";`],
  ["C", `static const char API_KEY[] = "${GOOGLE}";`, `static const char API_KEY[] = "${R}";`],
  [
    ".NET",
    `<add key="StripeSecretKey" value="${STRIPE}" />`,
    `<add key="StripeSecretKey" value="${R}" />`,
  ],
  ["Python", `client = OpenAI(api_key="${OPENAI}")`, `client = OpenAI(api_key="${R}")`],
  [
    "JavaScript",
    `const stripe = require('stripe')('${STRIPE_TEST}');`,
    `const stripe = require('stripe')('${R}');`,
  ],
  ["Python", `client = WebClient(token="${SLACK}")`, `client = WebClient(token="${R}")`],
  // URL-encoded
  [
    "URL-encoded",
    `GET /search?q=%22${OPENAI}%22 HTTP/1.1`,
    `GET /search?q=%22${R}%22 HTTP/1.1`,
  ],
  ["URL-encoded", `POST body: api_key%3D${OPENAI}`, `POST body: api_key%3D${R}`],
  // XML and HTML
  [
    "Maven settings.xml",
    "    <server><id>repo</id><password>s3cr3t-maven</password></server>",
    `    <server><id>repo</id><password>${R}</password></server>`,
  ],
  ["XML config", "<db:Password>hunter2</db:Password>", `<db:Password>${R}</db:Password>`],
  ["HTML form", '<input type="password" value="hunter2">', `<input type="password" value="${R}">`],
  [
    "HTML form",
    '<input type="password" name="pw" id="pw" required value="Sup3r">',
    `<input type="password" name="pw" id="pw" required value="${R}">`,
  ],
  // Azure
  [
    "Azure storage connection string",
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${AZURE_KEY};EndpointSuffix=core.windows.net`,
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${R};EndpointSuffix=core.windows.net`,
  ],
  [
    "Azure Service Bus connection string",
    `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${AZURE_KEY}`,
    `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${R}`,
  ],
  [
    "Azure SAS URL",
    `https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&se=2026-01-01T00:00:00Z&sig=${SAS_SIG}`,
    `https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&se=2026-01-01T00:00:00Z&sig=${R}`,
  ],
  // Sentry
  [
    ".env",
    `SENTRY_DSN=https://${SENTRY_KEY}@o450123.ingest.sentry.io/5501234`,
    `SENTRY_DSN=https://${R}@o450123.ingest.sentry.io/5501234`,
  ],
  [
    "JavaScript",
    `Sentry.init({ dsn: "https://${SENTRY_KEY}@o4505.ingest.us.sentry.io/4506" });`,
    `Sentry.init({ dsn: "https://${R}@o4505.ingest.us.sentry.io/4506" });`,
  ],
  // command lines
  ["mysql", "mysql -h db -u root -pS3cretPw app", `mysql -h db -u root -p${R} app`],
  [
    "mysqldump",
    "mysqldump -uroot -p'S3cret Pw' --all-databases > all.sql",
    `mysqldump -uroot -p'${R}' --all-databases > all.sql`,
  ],
  ["mysql", "mysql --user=root --password=letmein app", `mysql --user=root --password=${R} app`],
  // .netrc
  [
    ".netrc",
    "machine api.example.com login deploy password S3cretPw",
    `machine api.example.com login deploy password ${R}`,
  ],
  [
    ".netrc",
    "machine github.com\n  login octocat\n  password hunter2\n",
    `machine github.com\n  login octocat\n  password ${R}\n`,
  ],
  // colours written with colons
  [
    "log line, colon-form colour",
    `${ESC}[38:5:196m${OPENAI}${ESC}[0m`,
    `${ESC}[38:5:196m${R}${ESC}[0m`,
  ],
  [
    "JSON, coloured with colon-form colours",
    `"token"${ESC}[0m:${ESC}[38:2::0:128:0mabc123def${ESC}[0m`,
    `"token"${ESC}[0m:${ESC}[38:2::0:128:0m${R}${ESC}[0m`,
  ],
];

/** Text that looks like a secret, or holds a prefix or a name, and must stay. */
const LOOK_ALIKES: [context: string, input: string][] = [
  ["commit hash", "commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"],
  ["commit hash", "Merge 3f2a1b4 into 9c8d7e6: fix the token parser"],
  ["UUID", "123e4567-e89b-12d3-a456-426614174000"],
  ["UUID", "request_id=550e8400-e29b-41d4-a716-446655440000"],
  ["digest", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  [
    "base64 image",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ],
  [
    "base64 image holding AIza and eyJ",
    "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/QUJDAIzaSyD9tSrke72PouQMnMXa7eZSW0jkFMBWYeyJhbGci+eyJ0eXAi",
  ],
  ["usage", "token_count: 1234"],
  ["usage", "max_tokens: 4096"],
  ["usage", '{"input_tokens": 12, "output_tokens": 512}'],
  ["prose", "Generate a ghp token in the developer settings."],
  ["prose", "A fine-grained token starts with github_pat_ and a classic one with ghp_."],
  ["prose", 'The JWT header always starts with eyJ, the base64 of {"'],
  ["prose", "Google API keys start with AIza and are 39 characters long."],
  ["prose", "use sk_test keys in CI and sk_live keys in production"],
  ["prose", "sk_live_ keys are secret; pk_live_ keys are published"],
  ["prose", "set xoxb-your-token in the bot settings"],
  ["prose", "use sk-learn for the baseline"],
  ["prose", "Bearer token authentication is stateless."],
  ["prose", "the secret santa: Bob"],
  ["prose", "the token: it expires after an hour"],
  ["placeholder", "Authorization: Bearer <token>"],
  ["placeholder", "Authorization: Basic <credentials>"],
  ["placeholder", "Authorization: token $GITHUB_TOKEN"],
  ["placeholder", "password: ${DB_PASSWORD}"],
  ["placeholder", "GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx"],
  ["placeholder", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
  ["placeholder", "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"],
  ["placeholder", 'GITHUB_TOKEN="ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"'],
  ["placeholder", "OPENAI_API_KEY=sk-proj-XXXXXXXXXXXXXXXXXXXXXXXX"],
  ["placeholder", "STRIPE_SECRET_KEY=sk_live_****************"],
  ["placeholder", "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX"],
  ["placeholder", "mysql -u root -p app"],
  ["placeholder", "<password></password>"],
  ["logfmt", "password= user=admin"],
  ["logfmt", 'level=warn password= user=admin msg="login failed"'],
  ["prose", "Enter your login and password below."],
  ["prose", "The <password> element holds the server's password."],
  ["prose", "Run mysql -p and type the password when asked."],
  ["Sentry", "https://o450123.ingest.sentry.io/api/5501234/envelope/"],
  ["Azure", "SharedAccessKeyName=RootManageSharedAccessKey"],
  ["query", "https://example.com/signup?sign=up&design=a1b2c3&signature_version=4"],
  ["HTML form", '<input type="text" name="user" value="admin1">'],
  ["URL", "https://example.com:443/path"],
  ["URL", "http://localhost:8080/api/v1/tokens"],
  ["URL", "postgres://localhost/db"],
  ["URL", "http://[2001:db8::1]:8080/"],
  ["URL", "ftp://anonymous@ftp.example.com/pub"],
  ["URL", "https://user@host.example.com/path"],
  ["URL", "[docs](https://docs.example.com:8443/a@b)"],
  ["email", "user@example.com"],
  ["email", "mailto:user@example.com"],
  ["git", "git@github.com:org/repo.git"],
  ["regular expression", String.raw`/gh[pousr]_[A-Za-z0-9]{36}/`],
  ["regular expression", '"ghp_[A-Za-z0-9]{36}"'],
  ["JSON", '{"token_type": "Bearer", "expires_in": 3600}'],
  ["JSON", '{"api_key": null, "password": true}'],
  ["version", "v1.2.3-rc.1+build.5"],
  ["Windows path", String.raw`C:\Users\token\file.txt`],
  ["JWT-like", "eyJhbGciOiJIUzI1NiJ9.e30.signature"],
  ["Stripe publishable key", "pk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUv"],
];

Deno.test("redact() replaces each secret of the table", async (t) => {
  assert.ok(SECRETS.length >= 40);
  for (const [context, input, expected] of SECRETS) {
    await t.step(`${context}: ${JSON.stringify(input)}`, () => {
      assert.equal(redact(input), expected);
      assert.equal(redact(expected), expected, "redacting the output again changes it");
    });
  }
});

Deno.test("redact() leaves each look-alike of the table unchanged", async (t) => {
  assert.ok(LOOK_ALIKES.length >= 40);
  for (const [context, input] of LOOK_ALIKES) {
    await t.step(`${context}: ${JSON.stringify(input)}`, () => assert.equal(redact(input), input));
  }
});

Deno.test("the marker matches no shape, wherever it stands", async (t) => {
  const contexts = [
    "",
    "sk-",
    "Bearer ",
    "token=",
    "token: ",
    'password="',
    "api_key: str = ",
    "Authorization: Basic ",
    "Authorization: token ",
    "ghp_",
    "github_pat_",
    "xoxb-",
    "sk_live_",
    "AIza",
    "glpat-",
    "eyJhbGciOiJIUzI1NiJ9.",
    "https://user:",
    "https://",
    "q=%22",
    "api_key%3D",
    "char API_KEY[] = ",
    '<add key="ApiKey" value="',
    "<password>",
    '<input type="password" name="pw" value="',
    "AccountKey=",
    "?sv=1&sig=",
    "--password=",
    "mysql -u root -p",
    "machine h login u password ",
  ];
  for (const before of contexts) {
    // After an opening quote, the rest of the line is the value: only its
    // closing quote may follow the marker.
    const afters = before.endsWith('"') ? ["", '"'] : ["", "@host", '"', R, " rest"];
    for (const after of afters) {
      const text = `${before}${R}${after}`;
      await t.step(JSON.stringify(text), () => assert.equal(redact(text), text));
    }
  }
});
