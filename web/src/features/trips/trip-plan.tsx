import { timetableClock } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { TripLeg, TripPlan } from '@csomag/domain/trip-api';

/** The trip's duration and arrival, by whom they were worked out (timetable, journey planner, estimate). */
function planSummary(plan: TripPlan): string {
  if (plan.minutes === null || plan.arriveAt === null) return messages.tripNoConnection;
  const arrival = timetableClock(plan.arriveAt);
  if (plan.source === 'timetable') return messages.tripPlanTimetable(plan.minutes, arrival);
  if (plan.source === 'external') return messages.tripPlanExternal(plan.minutes, arrival);
  return messages.tripPlanEstimate(plan.minutes, arrival);
}

/** Why the straight line answered public transport, when it did. */
function fallbackText(plan: TripPlan): string | null {
  switch (plan.fallback) {
    case 'no_timetable':
      return messages.tripFallbackNoTimetable;
    case 'outside_timetable':
      return messages.tripFallbackOutside;
    case 'timetable_expired':
      return plan.timetableValidUntil ? messages.tripFallbackExpired(plan.timetableValidUntil) : null;
    case 'external_failed':
      return messages.tripFallbackExternal;
    default:
      return null;
  }
}

/** One leg as a timetable prints it: 'M3 Újpest-központ 7:42 → Deák Ferenc tér 7:55', 'gyalog 4 perc'. */
export function legText(leg: TripLeg): string {
  if (leg.kind === 'walk') return messages.tripLegWalk(leg.minutes);
  const ride = messages.tripLegRide(
    leg.route,
    leg.from.name,
    timetableClock(leg.from.at),
    leg.to.name,
    timetableClock(leg.to.at),
  );
  return leg.headsign ? `${ride} ${messages.tripLegHeadsign(leg.headsign)}` : ride;
}

/** The trip without a parcel: how long, when the runner arrives, which legs — and whether the minutes are an estimate. */
export function TripPlanSummary({ plan }: { plan: TripPlan }) {
  const fallback = fallbackText(plan);
  return (
    <div className="trip-plan">
      <p className="muted">{planSummary(plan)}</p>
      {fallback && (
        <p className="precision-note" role="note">
          {fallback}
        </p>
      )}
      {plan.legs.length > 0 && (
        <ol className="trip-legs" aria-label={messages.tripLegsTitle}>
          {plan.legs.map((leg, index) => (
            // Legs have no identity of their own; their order is the journey's.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
            <li key={index}>{legText(leg)}</li>
          ))}
        </ol>
      )}
    </div>
  );
}
