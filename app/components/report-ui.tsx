import { useEffect, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";

/**
 * A moment in the page's language. The server cannot know the reader's time zone, so the server
 * and the first render in the browser write it in UTC (and say so); once the page is running it is
 * written in the reader's own time zone. Both renders agree, so hydration never mismatches.
 */
export function LocalTime({ at, dateOnly = false }: { at: number; dateOnly?: boolean }) {
  const { language } = useTranslation();
  const [local, setLocal] = useState(false);
  useEffect(() => setLocal(true), []);
  const options: Intl.DateTimeFormatOptions = dateOnly
    ? { year: "numeric", month: "long", day: "numeric" }
    : { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" };
  const text = new Intl.DateTimeFormat(language, local ? options : { ...options, timeZone: "UTC", ...(dateOnly ? {} : { timeZoneName: "short" }) }).format(at);
  return <time dateTime={new Date(at).toISOString()}>{text}</time>;
}

/** The same moment as text, for a link's accessible name. */
export function dateText(language: string, at: number): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(at);
}
