import { MissingPage } from "~/app/_ui/empty-state";
import { TextLink } from "~/app/_ui/link";

export default function ScenarioNotFound() {
  return (
    <MissingPage title="No such scenario">
      The link may be mistyped, or the scenario's bundles were deleted. Find it again from the{" "}
      <TextLink href="/">explorer</TextLink>.
    </MissingPage>
  );
}
