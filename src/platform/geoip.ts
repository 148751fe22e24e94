/**
 * Where an address is: the operator's MaxMind databases (the `.mmdb` format
 * of GeoLite2 / GeoIP2, read with the `maxmind` library), named by
 * GATEHOUSE_GEOIP_DB (a City or Country database: country and
 * subdivision codes, city, location) and GATEHOUSE_ASN_DB (an ASN
 * database: the autonomous system number). Gatehouse ships no geolocation
 * data: without these settings nothing is looked up, and what needs the
 * data (network ACL rules by country, subdivision or ASN) is refused where
 * it is written.
 *
 * Each database is read once at start, whole, into memory (GeoLite2-City is
 * about 60 MiB; Country about 9 MiB), with the library's cache of recent
 * answers. A file that is not a database of the expected kind stops the
 * start with a message naming the variable (src/app/preflight.ts).
 */
import { open, type AsnResponse, type CityResponse, type Reader } from 'maxmind';
import { isIP } from 'node:net';

/** What Gatehouse reads of an address's location (ISO codes as the databases give them). */
export interface GeoInfo {
  /** ISO 3166-1 alpha-2, e.g. `GB`. */
  countryCode?: string;
  countryName?: string;
  /** ISO 3166-2 codes, country first, most general subdivision first, e.g. `['GB-ENG', 'GB-WBK']`. */
  subdivisionCodes: string[];
  subdivisionName?: string;
  cityName?: string;
  continentCode?: string;
  latitude?: number;
  longitude?: number;
  timeZone?: string;
  /** The autonomous system number (from the ASN database). */
  asn?: number;
}

export interface GeoSettings {
  /** Path of a City or Country database. */
  database: string | undefined;
  /** Path of an ASN database. */
  asnDatabase: string | undefined;
}

/** Which signals the configured databases answer. */
export interface GeoCapabilities {
  readonly location: boolean;
  readonly asn: boolean;
}

export interface GeoLookup extends GeoCapabilities {
  /** The address's location; undefined for an address the databases do not hold (or not an address). */
  lookup(ip: string): GeoInfo | undefined;
}

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const CACHE = { max: 10_000 };

async function reader<T extends CityResponse | AsnResponse>(variable: string, file: string, kinds: RegExp): Promise<Reader<T>> {
  let opened: Reader<T>;
  try {
    opened = await open<T>(file, { cache: CACHE, watchForUpdates: false });
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file} as a MaxMind database (${(error as Error).message})`);
  }
  const type = opened.metadata.databaseType;
  if (!kinds.test(type)) throw new Error(`${variable}: ${file} is a ${type} database; expected ${kinds.source.replace(/[\\^$()]/g, '')}`);
  return opened;
}

/** The lookup of the configured databases; undefined when none is configured. Throws an Error naming the variable of a file that cannot serve. */
export async function openGeoDatabases(settings: GeoSettings): Promise<GeoLookup | undefined> {
  if (settings.database === undefined && settings.asnDatabase === undefined) return undefined;
  const location = settings.database === undefined ? undefined : await reader<CityResponse>('GATEHOUSE_GEOIP_DB', settings.database, /(City|Country)/);
  const asn = settings.asnDatabase === undefined ? undefined : await reader<AsnResponse>('GATEHOUSE_ASN_DB', settings.asnDatabase, /ASN/);
  return {
    location: location !== undefined,
    asn: asn !== undefined,
    lookup(ip: string): GeoInfo | undefined {
      const address = MAPPED.exec(ip)?.[1] ?? ip;
      if (isIP(address) === 0) return undefined;
      const place = location?.get(address) ?? undefined;
      const system = asn?.get(address) ?? undefined;
      if (!place && !system) return undefined;
      const country = place?.country?.iso_code;
      const info: GeoInfo = { subdivisionCodes: [] };
      if (country) {
        info.countryCode = country;
        info.subdivisionCodes = (place?.subdivisions ?? []).map((s) => `${country}-${s.iso_code}`);
      }
      if (place?.country?.names?.en) info.countryName = place.country.names.en;
      if (place?.subdivisions?.[0]?.names?.en) info.subdivisionName = place.subdivisions[0].names.en;
      if (place?.city?.names?.en) info.cityName = place.city.names.en;
      if (place?.continent?.code) info.continentCode = place.continent.code;
      if (place?.location) {
        info.latitude = place.location.latitude;
        info.longitude = place.location.longitude;
        if (place.location.time_zone) info.timeZone = place.location.time_zone;
      }
      if (system?.autonomous_system_number !== undefined) info.asn = system.autonomous_system_number;
      return info;
    },
  };
}
