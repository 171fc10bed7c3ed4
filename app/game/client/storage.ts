/** Local storage keys (docs/product.md#client-state) and the browser's persisted client id. */
export const STORAGE_KEYS = {
  clientId: "quizClientId",
  isQuizHost: "isQuizHost",
  hostName: "hostName",
  selectedQuizCode: "selectedQuizCode",
  selectedQuizTitle: "selectedQuizTitle",
  iosInstallDismissed: "iosInstallDismissed",
  /** The game this browser plays in as a player, so a refresh rejoins it: {gameCode, nickname}. */
  playerGame: "quizPlayerGame",
  /** "on" when this browser, the screen the room watches, plays the game's sounds. */
  projectorSound: "projectorSound",
} as const;

/** The same id travels in a cookie so server actions (and browsers without JavaScript) know it too. */
export const CLIENT_ID_COOKIE = "quiz_client_id";

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or storage disabled: the game still works for this page's lifetime.
  }
}

function cookieClientId(): string | null {
  const match = document.cookie.match(new RegExp(`(?:^|; )${CLIENT_ID_COOKIE}=([^;]+)`));
  return match ? decodeURIComponent(match[1]) : null;
}

/** The persisted random client id: from local storage, else the server's cookie, else a new one. */
export function getClientId(): string {
  let id = read(STORAGE_KEYS.clientId) ?? cookieClientId();
  if (!id || !/^[\w.:-]{1,100}$/.test(id)) id = crypto.randomUUID();
  write(STORAGE_KEYS.clientId, id);
  if (cookieClientId() !== id) {
    document.cookie = `${CLIENT_ID_COOKIE}=${encodeURIComponent(id)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  }
  return id;
}

export interface HostSession {
  gameCode: string;
  title: string;
  hostName: string;
}

export function saveHostSession(session: HostSession): void {
  write(STORAGE_KEYS.isQuizHost, "true");
  write(STORAGE_KEYS.selectedQuizCode, session.gameCode);
  write(STORAGE_KEYS.selectedQuizTitle, session.title);
  write(STORAGE_KEYS.hostName, session.hostName);
  write(STORAGE_KEYS.playerGame, null);
}

export function loadHostSession(): HostSession | null {
  if (read(STORAGE_KEYS.isQuizHost) !== "true") return null;
  const gameCode = read(STORAGE_KEYS.selectedQuizCode);
  if (!gameCode) return null;
  return { gameCode, title: read(STORAGE_KEYS.selectedQuizTitle) ?? "", hostName: read(STORAGE_KEYS.hostName) ?? "" };
}

export interface PlayerSession {
  gameCode: string;
  nickname: string;
}

export function savePlayerSession(session: PlayerSession): void {
  write(STORAGE_KEYS.playerGame, JSON.stringify(session));
  write(STORAGE_KEYS.isQuizHost, null);
}

export function loadPlayerSession(): PlayerSession | null {
  const raw = read(STORAGE_KEYS.playerGame);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as PlayerSession;
    return typeof parsed.gameCode === "string" && typeof parsed.nickname === "string" ? parsed : null;
  } catch {
    return null;
  }
}

/** Home / reset: this browser is in no game any more. */
export function clearGameSessions(): void {
  write(STORAGE_KEYS.isQuizHost, null);
  write(STORAGE_KEYS.selectedQuizCode, null);
  write(STORAGE_KEYS.selectedQuizTitle, null);
  write(STORAGE_KEYS.playerGame, null);
}

export function isIosInstallDismissed(): boolean {
  return read(STORAGE_KEYS.iosInstallDismissed) === "true";
}

export function dismissIosInstall(): void {
  write(STORAGE_KEYS.iosInstallDismissed, "true");
}

export function isProjectorSoundOn(): boolean {
  return read(STORAGE_KEYS.projectorSound) === "on";
}

export function rememberProjectorSound(on: boolean): void {
  write(STORAGE_KEYS.projectorSound, on ? "on" : null);
}
