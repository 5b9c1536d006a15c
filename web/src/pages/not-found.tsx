import { Link } from 'react-router';
import { PageTitle } from '../ui/controls';

export default function NotFound() {
  return (
    <div>
      <PageTitle title="Not found">Not found</PageTitle>
      <p className="mt-3 text-sm">
        There is no page at this address. <Link to="/">Go to your projects</Link>.
      </p>
    </div>
  );
}
