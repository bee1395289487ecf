import { MissingPage } from "./_ui/empty-state";
import { TextLink } from "./_ui/link";

export default function NotFound() {
  return (
    <MissingPage title="Page not found">
      Nothing lives at this address. Start from the <TextLink href="/">explorer</TextLink>.
    </MissingPage>
  );
}
