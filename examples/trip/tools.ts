/**
 * The trip example's Tool and Activities, written to run whatever compiles them — tsc with or without
 * `emitDecoratorMetadata`, tsx, esbuild, SWC (issue 29): every param's type is stated by a decorator
 * (class-validator's, class-transformer's `@Type` for nested classes, or ideact's `@Param`), and every
 * constructor dependency by typedi's `@Inject`. test/decorators/toolchains.test.ts compiles this file four ways.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Activity, Describe, Inject, Param, Service, Token, Tool } from 'ideact';

/** How hard the days are. */
export enum Pace {
  Relaxed = 'relaxed',
  Brisk = 'brisk',
}

/** A point on Earth (a nested param class). */
export class Coordinates {
  @Describe('Latitude in degrees')
  @IsNumber()
  @Min(-90)
  @Max(90)
  lat!: number;

  @Describe('Longitude in degrees')
  @IsNumber()
  @Min(-180)
  @Max(180)
  lon!: number;
}

/** One stop of the trip (a nested class inside an array). */
export class Stop {
  @IsString()
  name!: string;

  @ValidateNested()
  @Type(() => Coordinates)
  at!: Coordinates;
}

@Tool({ description: 'Plan a trip through the given stops: the distance of each leg and per day.' })
@Activity('planTrip')
export class PlanTrip {
  @Describe('Who travels')
  @IsString()
  traveller!: string;

  @IsInt()
  @Min(1)
  @Max(14)
  days!: number;

  @IsIn(['train', 'car', 'bike'])
  mode!: 'train' | 'car' | 'bike';

  @IsEnum(Pace)
  pace!: Pace;

  @IsArray()
  @IsString({ each: true })
  interests!: string[];

  @IsBoolean()
  @IsOptional()
  roundTrip?: boolean;

  @ValidateNested()
  @Type(() => Coordinates)
  start!: Coordinates;

  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => Stop)
  stops!: Stop[];

  @Param({ type: 'integer' })
  @Min(0)
  @IsOptional()
  budget?: number;

  @Describe('Day of departure, YYYY-MM-DD')
  @Param({ schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } })
  departure!: string;
}

/** How distances are written: a dependency found by a typedi Token rather than by its class. */
export interface DistanceFormat {
  format(kilometres: number): string;
}

/** The token of the {@link DistanceFormat} service. */
export const DISTANCE_FORMAT = new Token<DistanceFormat>('distance format');

@Service({ id: DISTANCE_FORMAT })
export class KilometreFormat implements DistanceFormat {
  format(kilometres: number): string {
    return `${kilometres} km`;
  }
}

@Service()
export class Distances {
  /** Great-circle distance in whole kilometres. */
  between(from: Coordinates, to: Coordinates): number {
    const radians = (degrees: number): number => (degrees * Math.PI) / 180;
    const dLat = radians(to.lat - from.lat);
    const dLon = radians(to.lon - from.lon);
    const a =
      Math.sin(dLat / 2) ** 2 +
      Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLon / 2) ** 2;
    return Math.round(6371 * 2 * Math.asin(Math.sqrt(a)));
  }
}

@Service()
export class TripActivities {
  constructor(
    @Inject(() => Distances) private readonly distances: Distances,
    @Inject(DISTANCE_FORMAT) private readonly distanceFormat: DistanceFormat,
  ) {}

  @Activity('planTrip')
  plan(params: PlanTrip) {
    const points = [params.start, ...params.stops.map((stop) => stop.at)];
    const legs = params.stops.map((stop, index) => ({
      to: stop.name,
      distance: this.distances.between(points[index], stop.at),
    }));
    const total = legs.reduce((sum, leg) => sum + leg.distance, 0);
    return {
      traveller: params.traveller,
      departure: params.departure,
      legs: legs.map((leg) => ({ to: leg.to, distance: this.distanceFormat.format(leg.distance) })),
      total: this.distanceFormat.format(total),
      perDay: this.distanceFormat.format(Math.round(total / params.days)),
      // class-transformer built real instances, nested ones included, from the model's JSON.
      instances:
        params instanceof PlanTrip &&
        params.start instanceof Coordinates &&
        params.stops.every((stop) => stop instanceof Stop && stop.at instanceof Coordinates),
    };
  }
}
