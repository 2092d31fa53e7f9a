// ISO 8601 extended date-time with a zone designator, as the bridge data model requires it.
// Seconds may be omitted (hh:mm is ISO 8601); fractional seconds of any precision are allowed;
// the zone is Z or ±hh:mm.
export const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) &&
    Number(m[4]) <= 23 && Number(m[5]) <= 59 && (m[6] === undefined || Number(m[6]) <= 60) &&
    (m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59))
  );
}

/** Days in a month of the proleptic Gregorian calendar (ISO 8601's). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
