/**
 * The quiz pages (the editor, import, My Quizzes, the AI generator) and the XLSX template's help
 * sheet in the reader's language, rendered on the server: the words around a quiz are translated,
 * the quiz's own content never is.
 */
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuizWithQuestions } from "#app/models/quiz.server";
import { TEMPLATE_QUESTIONS } from "#app/quiz-files/quiz-spreadsheet.server";
import { signInAs, startTestServer, type SignedIn, type TestServer } from "./harness";

let server: TestServer;
let owner: SignedIn;
let quizId: number;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signInAs(server);
  const created = await createQuizWithQuestions(
    server.db,
    { title: "Pub Night Classics", description: "Questions from the regulars", timeLimit: 20, isPublic: false },
    [TEMPLATE_QUESTIONS[0]],
    { userId: owner.user.id },
  );
  if (created.status !== "ok") throw new Error("the quiz was not created");
  quizId = created.value.id;
});
afterAll(() => server?.stop());

/** A page's HTML without the comments React puts between adjacent text parts. */
async function page(pathname: string, language: string, cookie?: string): Promise<string> {
  const response = await fetch(`${server.url}${pathname}`, { headers: { "accept-language": language, ...(cookie ? { cookie } : {}) } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-language")).toBe(language);
  return (await response.text()).replaceAll("<!-- -->", "");
}

/** The page's visible words: its HTML without tags, scripts (the inline catalogs) and entities. */
function words(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}

describe("the quiz editor", () => {
  it.each([
    [
      "fr",
      [
        "Créer un quiz",
        "Titre",
        "Description (facultative)",
        "Visibilité",
        "Ajouter une question",
        "Enregistrer le quiz",
        "Texte de la question",
        "10 secondes",
      ],
    ],
    ["de", ["Quiz erstellen", "Titel", "Sichtbarkeit", "Frage hinzufügen", "Quiz speichern", "Fragetext", "Richtige Antwort", "Bild (optional)"]],
  ] as const)("speaks %s", async (language, expected) => {
    const html = await page("/create", language);
    const text = words(html);
    for (const phrase of expected) expect(text).toContain(phrase);
    for (const english of ["Add Question", "Save Quiz", "Question text", "Time limit", "Picture (optional)", "Have questions already?"])
      expect(text).not.toContain(english);
    expect(html).toMatch(/<title>(Créer un quiz|Quiz erstellen) - Quiz Night<\/title>/);
    // The link inside the sentence keeps its words.
    expect(html).toMatch(/<a [^>]*href="\/create\/import"[^>]*>(Importez un fichier de quiz ou un tableur|Importiere eine Quizdatei oder eine Tabelle)<\/a>/);
  });

  it("edits a quiz in Spanish, its content as written", async () => {
    const html = await page(`/create?edit=${quizId}`, "es", owner.cookie);
    const text = words(html);
    expect(text).toContain("Editar cuestionario");
    expect(text).toContain("Guardar cambios");
    expect(html).toMatch(/<a [^>]*href="\/my-quizzes"[^>]*>Volver a Mis cuestionarios<\/a>/);
    expect(html).toContain('value="Pub Night Classics"');
    expect(html).toContain('value="What is the capital of Australia?"');
  });

  it("shows the rules' messages from a refused save in the reader's language", async () => {
    const response = await fetch(`${server.url}/create`, {
      method: "POST",
      headers: { "accept-language": "de", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "save", title: "", timeLimit: "20", visibility: "private", "questions[0].kind": "choice", "questions[0].text": "" }),
    });
    expect(response.status).toBe(400);
    const text = words(await response.text());
    expect(text).toContain("Bitte gib deinem Quiz einen Titel.");
    expect(text).toContain("Frage 1 ist leer.");
    expect(text).not.toContain("Question 1 is empty.");
  });
});

describe("My Quizzes", () => {
  it("speaks French around the quiz, whose own words stay as written", async () => {
    const html = await page("/my-quizzes", "fr", owner.cookie);
    const text = words(html);
    for (const phrase of [
      "Mes quiz",
      "Créer un quiz",
      "Animer",
      "Modifier",
      "Dupliquer",
      "Supprimer",
      "Exporter (JSON)",
      "Privé",
      "1 question · 20 s par question",
    ])
      expect(text).toContain(phrase);
    for (const english of ["My Quizzes", "Create Quiz", "Export (JSON)", "Private", "per question", "Pictures travel only"])
      expect(text).not.toContain(english);
    // The quiz's content is never translated.
    expect(text).toContain("Pub Night Classics");
    expect(text).toContain("Questions from the regulars");
    expect(html).toContain('aria-label="Modifier Pub Night Classics"');
  });

  it("says what happened in the reader's language", async () => {
    expect(words(await page("/my-quizzes?deleted=1&playing=2", "es", owner.cookie))).toContain(
      "Cuestionario eliminado. Sus 2 juegos abiertos (en espera o en curso) aún pueden terminar",
    );
  });
});

describe("import", () => {
  it("speaks German, and lists a spreadsheet's problems by row in German", async () => {
    const text = words(await page("/create/import", "de"));
    for (const phrase of ["Quiz importieren", "Excel-Vorlage herunterladen", "Quizdatei oder Tabelle", "Zurück zum Editor"]) expect(text).toContain(phrase);
    expect(text).not.toContain("Import Quiz");

    const form = new FormData();
    form.set("file", new Blob(["Question,Answer 1,Answer 2,Correct\nOne,A,,1\nTwo,A,B,3\n"]), "bad.csv");
    const response = await fetch(`${server.url}/create/import`, { method: "POST", body: form, headers: { "accept-language": "de", cookie: owner.cookie } });
    expect(response.status).toBe(400);
    const refused = words((await response.text()).replaceAll("<!-- -->", ""));
    expect(refused).toContain("Zeile 2: Eine Frage braucht 2 bis 6 Antworten.");
    expect(refused).toContain("Zeile 3: Correct nennt Antwort 3, die leer ist.");
    expect(refused).not.toContain("Row 3");
  });

  it("explains the XLSX template's columns in the reader's language, the columns keeping the format's English names", async () => {
    const response = await fetch(`${server.url}/create/template.xlsx`, { headers: { "accept-language": "es" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("vary")).toContain("Accept-Language");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await response.arrayBuffer()) as any);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Quiz", "Cómo rellenarla"]);
    expect(workbook.worksheets[0].getRow(1).getCell(1).value).toBe("Question");
    const help = workbook.worksheets[1];
    expect(help.getRow(1).values).toEqual([undefined, "Columna", "Qué escribir"]);
    expect(help.getRow(2).values).toEqual([undefined, "Question", "La pregunta, hasta 500 caracteres. Cada fila es una pregunta; las filas vacías se saltan."]);
  });
});

describe("the AI generator", () => {
  it("speaks Spanish, and starts the quiz language on the page's", async () => {
    const guest = await signInAs(server, "guest");
    const html = await page("/ai-quiz", "es", guest.cookie);
    const text = words(html);
    for (const phrase of ["Generador de cuestionarios con IA", "Idioma del cuestionario", "Temas populares", "Espacio y astronomía", "Generar cuestionario"])
      expect(text).toContain(phrase);
    expect(text).toMatch(/Cuestionarios con IA que te quedan:\s+5 de 5/);
    expect(text).not.toContain("Popular topics");
    // Each language in its own words; the page's selected.
    const select = /<select[^>]*name="language"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
    expect(select).toMatch(/<option value="es" lang="es" selected="">Español<\/option>/);
    for (const name of ["English", "Deutsch", "Français"]) expect(select).toContain(`>${name}</option>`);
  });

  it("starts on English for an English page", async () => {
    const guest = await signInAs(server, "guest");
    const select = /<select[^>]*name="language"[^>]*>([\s\S]*?)<\/select>/.exec(await page("/ai-quiz", "en", guest.cookie))?.[1] ?? "";
    expect(select).toMatch(/<option value="en" lang="en" selected="">English<\/option>/);
  });
});
